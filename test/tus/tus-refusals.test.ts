import * as tus from "tus-js-client";
import { describe, expect, test } from "vitest";
import {
  asBody,
  type BadLine,
  bucketKeys,
  CutText,
  expectBadLineError,
  fileExists,
  head,
  listedNames,
  postedBadLine,
  primesText,
  type SentRequest,
  startUpload,
  untilGone,
  useTusWorker,
} from "./tus-support.ts";

// Uploads that must leave nothing: tus-js-client uploads refused for a bad line (sequential and parallel, the
// FILE's line and column in the client's error), and uploads terminated by the client. This file's worker stores
// no file at all, so at its end its bucket must be empty.
const worker = useTusWorker("drainpipe-tus-refusals-");

/** Every upload URL this file's tests created (partial ones too): all must be gone at the end. */
const created: string[] = [];

/** Records the upload URLs that `requests` created. */
function remember(requests: readonly SentRequest[]): void {
  for (const request of requests) {
    if (request.method === "POST" && request.location !== undefined) {
      created.push(new URL(request.location, worker.endpoint).toString());
    }
  }
}

/** The line (1-based) that the byte at `offset` of `bytes` lies on. */
function lineAt(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index += 1) if (bytes[index] === 10) line += 1;
  return line;
}

/**
 * About 100 KB of primes with CRLF and blank lines early on (so that the line count is not the number count),
 * then `bad` placed with its byte `at` right after a multiple of `every` (a chunk boundary), then more primes.
 * Returns the text and where `bad` starts.
 */
async function withBadLine(bad: string, at: number, every: number) {
  const primes = await primesText(16_000);
  const text = new CutText();
  text.append("\r\n\n007\r\n-0\n\n");
  const middle = primes.indexOf(10, 50_000) + 1;
  text.append(primes.subarray(0, middle));
  const cut = text.appendCut(bad, at, every);
  text.append(primes.subarray(middle));
  return { bytes: text.bytes(), start: cut - at, cut };
}

/** Runs a tus-js-client upload that must fail; resolves with its error and requests. */
async function refusedUpload(bytes: Buffer, options: Parameters<typeof startUpload>[2]) {
  const run = startUpload(worker, bytes, options);
  const error = await run.done.then(
    (url) => expect.fail(`the upload succeeded (${url})`),
    (reason: unknown) => reason,
  );
  remember(run.requests);
  return { error, requests: run.requests };
}

/** Checks that there is no file `name`: not readable, not listed. */
async function expectNoFile(name: string): Promise<void> {
  expect(await fileExists(worker, name)).toBe(false);
  expect((await worker.api(`/files/${name}/content`)).status).toBe(404);
  expect(await listedNames(worker)).not.toContain(name);
}

/** Checks that the refused upload at `url` is gone or holds no byte at or after the bad one. */
async function expectNothingPastBadByte(url: string, bad: BadLine): Promise<void> {
  const state = await head(worker, url);
  expect([200, 204, 404, 410]).toContain(state.status);
  if (state.status < 300) expect(state.offset).toBeLessThanOrEqual(bad.offset);
}

describe("a bad line refused, its FILE line and column in tus-js-client's error", () => {
  test("sequential: a letter in a line cut by a chunk boundary", async () => {
    const { bytes, start } = await withBadLine("12x45\n", 2, 1_000);
    const name = "bad-letter";
    const expected = await postedBadLine(worker, `${name}.post`, bytes);
    expect(expected).toMatchObject({ line: lineAt(bytes, start), column: 3, offset: start + 2 });
    const { error, requests } = await refusedUpload(bytes, { chunkSize: 1_000, metadata: { name } });
    expectBadLineError(error, expected);
    await expectNoFile(name);
    const url = created.at(-1)!;
    expect(requests.some((request) => request.method === "PATCH" && request.status === 204)).toBe(true);
    await expectNothingPastBadByte(url, expected);
  });

  test("sequential: a chunk ends with a \\r that the next chunk does not follow with \\n", async () => {
    const { bytes, start, cut } = await withBadLine("12\r5\n", 3, 1_000);
    expect(bytes[cut - 1]).toBe(0x0d);
    const name = "bad-stray-cr";
    const expected = await postedBadLine(worker, `${name}.post`, bytes);
    expect(expected.line).toBe(lineAt(bytes, start));
    const { error } = await refusedUpload(bytes, { chunkSize: 1_000, metadata: { name } });
    expectBadLineError(error, expected);
    await expectNoFile(name);
    await expectNothingPastBadByte(created.at(-1)!, expected);
  });

  test.each([
    { what: "a letter after 3,000 leading zeros", bad: `${"0".repeat(3_000)}x\n` },
    { what: "an integer past 2^53 - 1 after 5,000 leading zeros", bad: `-${"0".repeat(5_000)}9007199254740992\n` },
  ])("sequential: $what, the line spanning several chunks", async ({ bad }) => {
    const { bytes, start } = await withBadLine(bad, 500, 1_000);
    const name = `bad-zeros-${bad.length}`;
    const expected = await postedBadLine(worker, `${name}.post`, bytes);
    expect(expected.line).toBe(lineAt(bytes, start));
    expect(expected.column).toBeGreaterThan(3_000);
    const { error } = await refusedUpload(bytes, { chunkSize: 1_000, metadata: { name } });
    expectBadLineError(error, expected);
    await expectNoFile(name);
    await expectNothingPastBadByte(created.at(-1)!, expected);
  });

  test("parallelUploads: 4, a letter in the third quarter", async () => {
    const primes = await primesText(16_000);
    const text = new CutText();
    text.append("\r\n\n007\r\n-0\n\n");
    const at = primes.indexOf(10, Math.floor(primes.length * 0.62)) + 1;
    text.append(primes.subarray(0, at)).append("99a\n").append(primes.subarray(at));
    const bytes = text.bytes();
    const quarter = Math.floor(bytes.length / 4);
    const badByte = bytes.indexOf("99a\n") + 2;
    expect(badByte).toBeGreaterThan(2 * quarter + 100);
    expect(badByte).toBeLessThan(3 * quarter - 100);
    const name = "bad-parallel-third";
    const expected = await postedBadLine(worker, `${name}.post`, bytes);
    expect(expected).toMatchObject({ line: lineAt(bytes, badByte), column: 3, offset: badByte });
    const { error, requests } = await refusedUpload(bytes, { parallelUploads: 4, metadata: { name } });
    expectBadLineError(error, expected);
    expect(requests.filter((request) => request.method === "POST" && request.concat === "partial")).toHaveLength(4);
    await expectNoFile(name);
  });

  test.each([
    { what: "a lone '-' whose line break opens the next partial", bad: "-\n", at: 1, chunkSize: 7_000 },
    { what: "an integer past 2^53 - 1 split across two partials", bad: "9007199254740993\n", at: 10 },
    { what: "a \\r ending one partial, the next not starting with \\n", bad: "12\r5\n", at: 3 },
  ])("parallelUploads: 4, $what", async ({ bad, at, chunkSize }) => {
    const { bytes, start, cut } = await withBadLine(bad, at, 1);
    const boundaries = [0, Math.floor(bytes.length / 4), cut, Math.floor((bytes.length * 7) / 8), bytes.length];
    const name = `bad-spanning-${bad.length}`;
    const expected = await postedBadLine(worker, `${name}.post`, bytes);
    expect(expected.line).toBe(lineAt(bytes, start));
    const { error } = await refusedUpload(bytes, {
      parallelUploads: 4,
      ...(chunkSize === undefined ? {} : { chunkSize }),
      parallelUploadBoundaries: boundaries
        .slice(0, 4)
        .map((from, index) => ({ start: from, end: boundaries[index + 1]! })),
      metadata: { name },
    });
    expectBadLineError(error, expected);
    await expectNoFile(name);
  });
});

describe("termination", () => {
  test("upload.abort(true) mid-way: HEAD answers 404 or 410, no file", async () => {
    const bytes = await primesText(10_000);
    const name = "terminated";
    let chunks = 0;
    let url = "";
    await new Promise<void>((resolve, reject) => {
      const run = startUpload(worker, bytes, {
        chunkSize: 2_000,
        metadata: { name },
        onChunkComplete: () => {
          chunks += 1;
          if (chunks !== 3) return;
          url = run.upload.url!;
          run.upload.abort(true).then(resolve, reject);
        },
      });
      run.done.catch(reject);
    });
    created.push(url);
    expect([404, 410]).toContain((await head(worker, url)).status);
    const patch = await worker.tus(url, {
      method: "PATCH",
      headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "6000" },
      body: asBody(bytes.subarray(6_000, 8_000)),
    });
    expect([404, 410]).toContain(patch.status);
    await expectNoFile(name);
  });

  test("tus.Upload.terminate(url) of an upload with data", async () => {
    const bytes = await primesText(5_000);
    const name = "terminated-static";
    let url = "";
    const stopped = new Promise<void>((resolve, reject) => {
      const run = startUpload(worker, bytes, {
        chunkSize: 4_000,
        metadata: { name },
        onChunkComplete: () => {
          url = run.upload.url!;
          void run.upload.abort().then(resolve, reject);
        },
      });
      run.done.catch(reject);
    });
    await stopped;
    created.push(url);
    expect((await head(worker, url)).offset).toBe(4_000);
    await tus.Upload.terminate(url, { headers: { Authorization: `Bearer ${worker.token}` }, retryDelays: null });
    expect([404, 410]).toContain((await head(worker, url)).status);
    await expectNoFile(name);
  });

  test("abort(true) of a parallel upload terminates every partial", async () => {
    const bytes = await primesText(20_000);
    const name = "terminated-parallel";
    let chunks = 0;
    let onChunk = () => {};
    // tus-js-client terminates the partials without waiting (abort(true) of a parallel upload resolves at once),
    // with retries as it makes them by default: a partial may still be busy with its aborted PATCH.
    const run = startUpload(worker, bytes, {
      parallelUploads: 4,
      chunkSize: 5_000,
      metadata: { name },
      retryDelays: [0, 500, 1_000, 2_000],
      onChunkComplete: () => onChunk(),
    });
    await new Promise<void>((resolve, reject) => {
      onChunk = () => {
        chunks += 1;
        if (chunks === 4) run.upload.abort(true).then(resolve, reject);
      };
      run.done.catch(reject);
    });
    remember(run.requests);
    const partials = run.requests
      .filter((request) => request.method === "POST" && request.concat === "partial")
      .map((request) => new URL(request.location!, worker.endpoint).href);
    expect(partials).toHaveLength(4);
    await untilGone(worker, partials);
    await expectNoFile(name);
  });
});

describe("what the refused and terminated uploads leave", () => {
  test("every upload is gone, and the bucket is empty", { timeout: 90_000 }, async () => {
    expect(created.length).toBeGreaterThanOrEqual(10);
    await untilGone(worker, created);
    await worker.stop();
    expect(await bucketKeys(worker.stateDir)).toEqual([]);
  });
});
