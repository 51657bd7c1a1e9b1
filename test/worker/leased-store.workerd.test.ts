import { env } from "cloudflare:workers";
import { afterAll } from "vitest";
import { Heartbeat } from "../../src/worker/heartbeat.ts";
import { LeasedStore } from "../../src/worker/leased-store.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { describeObjectStoreContract } from "../support/object-store-contract.ts";

/** Long enough that no lease ends, and no heartbeat renews, while the contract runs. */
const LEASE_MS = 600_000;
const heartbeats: Heartbeat[] = [];
let sequence = 0;

afterAll(() => {
  for (const heartbeat of heartbeats) heartbeat.stop();
});

/** A LeasedStore over the emptied test bucket, writing for an upload a fresh coordinator admitted. */
async function leasedStore(): Promise<LeasedStore> {
  const inner = await emptyR2Store();
  const name = `leased-${++sequence}-${Date.now()}`;
  const coordinator = env.COORDINATOR.getByName(name);
  const { uploadId } = await coordinator.beginUpload(LEASE_MS);
  const heartbeat = new Heartbeat(() => coordinator.renewUpload(uploadId, LEASE_MS), LEASE_MS);
  heartbeats.push(heartbeat);
  return new LeasedStore(inner, { uploadId, coordinator, heartbeat });
}

describeObjectStoreContract("LeasedStore over R2Store, lease held", leasedStore);
