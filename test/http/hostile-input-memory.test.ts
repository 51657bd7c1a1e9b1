import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningWorker, startRealWorker } from "../../harness/local-worker.ts";
import { memoryOf, resetPeakRss } from "../../harness/process-usage.ts";

// Hostile inputs over real HTTP to local workerd must not cost the isolate memory: a Worker isolate has 128 MB.
// Each case resets the workerd process's peak RSS (Linux `clear_refs`), sends its request, checks the answer,
// and reads the peak: it must stay within 64 MiB of the RSS before the request. The bodies are many times that
// size, so a worker that held one (or parsed it) would pass the bound by far; the bound leaves room for the
// collector and the local R2 simulator, which run in the same process.

const MiB = 1024 * 1024;
/** Growth of workerd's peak RSS over its RSS before a hostile request that the worker must stay within. */
const MAX_GROWTH_MIB = 64;
/** Size of the hostile bodies: far past what the isolate may hold. */
const HOSTILE_BYTES = 200 * MiB;

let stateDir: string;
let worker: RunningWorker;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-hostile-"));
  worker = await startRealWorker(stateDir);
  // Warm up: the first upload and read compile the worker's code and open the local bucket.
  for (let round = 0; round < 2; round++) {
    const body = `${Array.from({ length: 100_000 }, (_, i) => i).join("\n")}\n`;
    expect((await call("POST", "/files/warm-up", { body })).status).toBe(201);
    expect((await call("GET", "/files/warm-up/content")).status).toBe(200);
  }
}, 120_000);

afterAll(async () => {
  await worker?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

function call(method: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${worker.url}${path}`, {
    ...init,
    method,
    headers: { ...worker.headers, ...(init.headers as Record<string, string>) },
    ...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

/** A body stream of `total` bytes, `piece` repeated (the last one cut short). */
function repeated(piece: string, total: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(piece.repeat(Math.ceil(MiB / piece.length)).slice(0, MiB));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk.byteLength, total - sent);
      controller.enqueue(chunk.slice(0, size));
      sent += size;
    },
  });
}

/** Runs `request` with the workerd process's peak reset first; returns the answer and the peak's growth in MiB. */
async function measured(request: () => Promise<Response>): Promise<{ status: number; body: string; growth: number }> {
  const pid = worker.pid();
  if (!resetPeakRss(pid)) throw new Error("Cannot reset the peak RSS of workerd: /proc/<pid>/clear_refs refused");
  const before = memoryOf(pid).rss;
  const response = await request();
  const body = await response.text();
  const growth = (memoryOf(pid).peak - before) / MiB;
  return { status: response.status, body, growth };
}

describe("hostile input within 64 MiB of workerd's memory", () => {
  test.each([
    ["chunked", {}],
    ["with its Content-Length", { "Content-Length": String(HOSTILE_BYTES) }],
  ])("a 200 MiB session completion body, %s, is refused with 413", { timeout: 120_000 }, async (_how, headers) => {
    const opened = await call("POST", "/files/hostile/uploads");
    expect(opened.status).toBe(201);
    const { sessionId } = (await opened.json()) as { sessionId: string };
    const result = await measured(() =>
      call("POST", `/files/hostile/uploads/${sessionId}/complete`, { body: repeated("[", HOSTILE_BYTES), headers }),
    );
    expect(result.status, result.body).toBe(413);
    expect(result.growth).toBeLessThan(MAX_GROWTH_MIB);
  });

  test("deeply nested JSON in a completion body is refused without parsing it", { timeout: 120_000 }, async () => {
    const opened = await call("POST", "/files/nested/uploads");
    const { sessionId } = (await opened.json()) as { sessionId: string };
    const nested = "[".repeat(1000);
    const result = await measured(() =>
      call("POST", `/files/nested/uploads/${sessionId}/complete`, {
        body: nested,
        headers: { "Content-Type": "application/json" },
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toContain("invalid-body");
    expect(result.growth).toBeLessThan(MAX_GROWTH_MIB);
  });

  test("a 64 KiB Drainpipe-Attempt header is refused with 431", { timeout: 120_000 }, async () => {
    const result = await measured(() =>
      call("POST", "/files/attempt", { body: "1\n", headers: { "Drainpipe-Attempt": "a".repeat(64 * 1024) } }),
    );
    expect(result.status).toBe(431);
    expect(result.growth).toBeLessThan(MAX_GROWTH_MIB);
  });

  test.each([
    ["one 200 MiB line of digits", 400, "1234567890"],
    ["200 MiB of leading zeros (one number: 0)", 201, "0"],
    ["200 MiB of blank lines", 201, "\n"],
    ["200 MiB of CRLF blank lines", 201, "\r\n"],
    ["200 MiB of letters", 400, "x"],
  ])("an upload of %s is answered %i", { timeout: 300_000 }, async (_what, status, piece) => {
    const result = await measured(() => call("POST", "/files/hostile-body", { body: repeated(piece, HOSTILE_BYTES) }));
    expect(result.status, result.body).toBe(status);
    expect(result.growth).toBeLessThan(MAX_GROWTH_MIB);
  });
});
