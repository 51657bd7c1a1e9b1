import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { WorkerClient } from "../../src/cli/worker-client.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// The client meets the worker's per-request limits: the files are stored by a worker on the Paid plan, then read
// through one allowed 10 subrequests per request (SUBREQUEST_LIMIT), over the same local state. So few do not
// fit a content read of 100 parts even in slices, nor a listing of 61 files in one page.

let stateDir: string;
const content = new Uint8Array(encodeNumbers(sampleNumbers(14_000, 7)));
const names = Array.from({ length: 60 }, (_, index) => `f${String(index).padStart(2, "0")}`);

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-client-"));
  const paid = await startEmbeddedWorker({ stateDir });
  try {
    const client = new WorkerClient(paid.url, paid.token);
    const manifest = await client.upload("many-parts", new Response(content).body!, {
      size: content.byteLength,
      maxPartBytes: 1024,
    });
    expect(manifest.parts.length).toBeGreaterThan(100);
    for (const name of names) await client.upload(name, new Response("1\n").body!, { size: 2 });
  } finally {
    await paid.stop();
  }
}, 120_000);

afterAll(async () => {
  await rm(stateDir, { recursive: true, force: true });
});

describe("a client of a worker allowed 10 subrequests per request", () => {
  test("reads a file of more parts than one request may read, one part per request", { timeout: 60_000 }, async () => {
    const tight = await startEmbeddedWorker({ stateDir, vars: { PLAN: "free", SUBREQUEST_LIMIT: "10" } });
    try {
      const client = new WorkerClient(tight.url, tight.token);
      const whole = await fetch(`${tight.url}/files/many-parts/content`, {
        headers: { Authorization: `Bearer ${tight.token}` },
      });
      expect(whole.status).toBe(422);
      const { body, size } = await client.content("many-parts");
      expect(size).toBe(content.byteLength);
      expect(new Uint8Array(await new Response(body).arrayBuffer())).toEqual(content);
      expect((await client.list()).map((file) => file.name)).toEqual([...names, "many-parts"].sort());
    } finally {
      await tight.stop();
    }
  });
});
