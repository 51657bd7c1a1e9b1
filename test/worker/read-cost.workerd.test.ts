import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test, vi } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { RequestBudget } from "../../src/store/request-budget.ts";
import { meteredNamespace } from "../../src/worker/metered-namespace.ts";
import { type CallOptions, callUntilDone } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// What a read costs the file's coordinator: its calls (counted with the metered namespace, as the platform-limits
// tests do) and the rows it writes to its SQLite ledger (counted by a wrapper around the object's `sql.exec`).

/** A request to the worker with `READ_GRACE_SECONDS` `grace`; `coordinatorCalls` counts its coordinator calls. */
async function countedCall(
  method: string,
  path: string,
  grace: string,
  options: CallOptions = {},
): Promise<{ response: Response; coordinatorCalls: () => number; done: Promise<void> }> {
  const budget = new RequestBudget(10_000);
  const vars = { READ_GRACE_SECONDS: grace, COORDINATOR: meteredNamespace(env.COORDINATOR, budget) };
  const { response, done } = await callUntilDone(method, path, { ...options, vars });
  return { response, coordinatorCalls: () => budget.used, done };
}

/** Stores `numbers` as `name` in parts of 1 KiB. */
async function stored(name: string, numbers: Float64Array, grace: string): Promise<Manifest> {
  const { response } = await countedCall("POST", `/files/${name}?maxPartBytes=1024`, grace, {
    body: encodeNumbers(numbers),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Manifest;
}

/**
 * Counts, from now on, the rows the coordinator of `name` writes to its SQLite storage: every statement its ledger
 * runs goes through the object's `sql.exec`, whose cursors tell the rows they wrote.
 */
async function ledgerWrites(name: string): Promise<() => number> {
  const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
  await runInDurableObject(env.COORDINATOR.getByName(name), (_instance, state) => {
    const { sql } = state.storage;
    const exec = sql.exec.bind(sql);
    sql.exec = ((query: string, ...bindings: SqlStorageValue[]) => {
      const cursor = exec(query, ...bindings);
      cursors.push(cursor);
      return cursor;
    }) as typeof sql.exec;
  });
  return () => cursors.reduce((sum, cursor) => sum + cursor.rowsWritten, 0);
}

async function keysOf(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), prefix)) keys.push(object.key);
  return keys.sort();
}

/** Open leased reads of `name`, as its coordinator counts them. */
async function leasedReads(name: string): Promise<number> {
  return (await env.COORDINATOR.getByName(name).status()).reads;
}

const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 20 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  await emptyR2Store();
});

describe("the cost of a read of an unchanged file", () => {
  test("one coordinator call and no ledger write; with no grace period (every read leased), two calls", async () => {
    const numbers = sampleNumbers(2_000, 1);
    await stored("steady", numbers, "60");
    const writes = await ledgerWrites("steady");
    const costs: Record<string, unknown> = {};
    for (const grace of ["60", "0"]) {
      const before = writes();
      const reads = [];
      for (const [path, headers] of [
        ["/files/steady/content", {}],
        ["/files/steady/content", { Range: "bytes=100-199" }],
        ["/files/steady/parts/3", {}],
      ] as const) {
        const { response, coordinatorCalls, done } = await countedCall("GET", path, grace, { headers });
        expect(response.status).toBeLessThan(300);
        await response.arrayBuffer();
        await done;
        reads.push(coordinatorCalls());
      }
      costs[grace] = { coordinatorCalls: reads, ledgerRowsWritten: writes() - before };
    }
    expect(costs).toEqual({
      // Within the grace period: beginRead (or beginPartRead), which writes nothing.
      "60": { coordinatorCalls: [1, 1, 1], ledgerRowsWritten: 0 },
      // Leased reads (as every read was before grace periods): beginRead and endRead, a row added and deleted
      // (3 rows written per read, as SQLite counts them).
      "0": { coordinatorCalls: [2, 2, 2], ledgerRowsWritten: 9 },
    });
  });
});

describe("reads across a replace", () => {
  test("a read past half the grace period takes a lease; its version outlives the grace period", async () => {
    const old = sampleNumbers(6_000, 2);
    const manifest = await stored("long", old, "2");
    expect(manifest.parts.length).toBeGreaterThan(20);
    const read = await countedCall("GET", "/files/long/content", "2");
    const reader = read.response.body!.getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    // The body waits for this reader; half the grace period (1 s) in, the read takes its lease.
    await eventually(async () => expect(await leasedReads("long")).toBe(1));
    await stored("long", sampleNumbers(500, 3), "2");
    // Past the replaced version's grace period: only the read's lease keeps it.
    await pause(2_100);
    await runDurableObjectAlarm(env.COORDINATOR.getByName("long"));
    expect(await keysOf(`long/uploads/${manifest.uploadId}/`)).toHaveLength(manifest.parts.length);
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    expect(new Uint8Array(await new Blob(chunks).arrayBuffer())).toEqual(encodeNumbers(old));
    await read.done;
    expect(read.coordinatorCalls()).toBe(3); // beginRead, holdRead, endRead
    await eventually(async () => expect(await keysOf(`long/uploads/${manifest.uploadId}/`)).toEqual([]));
  });

  test("a replaced version nobody leased is deleted by the alarm once its grace period ended", async () => {
    const manifest = await stored("brief", sampleNumbers(500, 4), "1");
    const read = await countedCall("GET", "/files/brief/content", "1");
    await read.response.arrayBuffer();
    await read.done;
    await stored("brief", sampleNumbers(500, 5), "1");
    expect(await keysOf(`brief/uploads/${manifest.uploadId}/`)).toHaveLength(manifest.parts.length);
    await pause(1_100);
    await runDurableObjectAlarm(env.COORDINATOR.getByName("brief"));
    expect(await keysOf(`brief/uploads/${manifest.uploadId}/`)).toEqual([]);
  });

  test("a read whose version went before it took its lease errors its body, never a short 200", async () => {
    const numbers = sampleNumbers(6_000, 6);
    await stored("gone", numbers, "2");
    const read = await countedCall("GET", "/files/gone/content", "2");
    expect(read.response.status).toBe(200);
    const reader = read.response.body!.getReader();
    await reader.read();
    // A replace by a worker with no grace period: nothing keeps the unleased read's version.
    await stored("gone", sampleNumbers(500, 7), "0");
    let received = 0;
    const failure = await (async () => {
      for (let next = await reader.read(); !next.done; next = await reader.read()) received += next.value.length;
      return null;
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toBeLessThan(encodeNumbers(numbers).length);
    await read.done;
  });
});
