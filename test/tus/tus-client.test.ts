import type * as tus from "tus-js-client";
import { describe, expect, test } from "vitest";
import { defaultName } from "../../src/cli/default-name.ts";
import {
  asBody,
  byteStream,
  CutText,
  canonical,
  expectSameBytes,
  expectStoredLikePost,
  fileExists,
  head,
  MemoryUrlStorage,
  patchCount,
  primesText,
  type SentRequest,
  startUpload,
  storedFile,
  upload,
  useTusWorker,
} from "./tus-support.ts";

// tus-js-client (Node: Buffer and Readable sources) against the worker in local workerd with local R2, over real
// HTTP: every upload must store exactly what one POST of the same bytes stores.
const worker = useTusWorker("drainpipe-tus-client-");

/** Part size asked for in the uploads' metadata (and of the reference POSTs): several parts per file. */
const MAX_PART_BYTES = 65_536;

/** The primes used by most tests (45,000 lines, about 300 KB), made once. */
let primesOnce: Promise<Buffer> | undefined;
const primes = () => {
  primesOnce ??= primesText(45_000);
  return primesOnce;
};

/** The start of the first line at or after `position` in `text`. */
function lineStartFrom(text: Buffer, position: number): number {
  return position === 0 ? 0 : text.indexOf(10, position - 1) + 1;
}

/**
 * About 300 KB of primes with some non-trivial lines, laid out for uploads in chunks of `chunkSize` bytes: one
 * chunk ends right after the `\r` of a CRLF line (`crlfCut`), another inside a run of leading zeros
 * (`zerosCut`), and a third inside a long negative number (`numberCut`).
 */
async function primesCutFor(chunkSize: number) {
  const all = await primes();
  const text = new CutText();
  const first = lineStartFrom(all, 60_000);
  const second = lineStartFrom(all, 150_000);
  const third = lineStartFrom(all, 220_000);
  text.append(all.subarray(0, first));
  const crlfCut = text.appendCut("104729\r\n", "104729\r".length, chunkSize);
  text.append(all.subarray(first, second));
  const zerosCut = text.appendCut(`${"0".repeat(40)}104743\n`, 17, chunkSize);
  text.append("-9007199254740991\n9007199254740991\n0\n-1\n1\n");
  text.append(all.subarray(second, third));
  const numberCut = text.appendCut("-9007199254740990\n", 9, chunkSize);
  text.append(all.subarray(third));
  const bytes = text.bytes();
  expect([bytes[crlfCut - 1], bytes[crlfCut]]).toEqual([0x0d, 0x0a]);
  expect([bytes[zerosCut - 1], bytes[zerosCut]]).toEqual([0x30, 0x30]);
  expect(bytes.subarray(numberCut - 9, numberCut + 8).toString()).toBe("-9007199254740990");
  return { bytes, crlfCut, zerosCut, numberCut };
}

/**
 * A non-canonical rendering of the first primes: leading zeros on every 7th line, CRLF on every 11th, a blank
 * line (LF or CRLF) after every 13th, a `-0` line after every 17th, and no final newline.
 */
async function nonCanonicalPrimes(count: number): Promise<Buffer> {
  const lines = (await primesText(count)).toString().trimEnd().split("\n");
  const out: string[] = [];
  lines.forEach((line, index) => {
    const digits = index % 7 === 0 ? `000${line}` : line;
    out.push(`${digits}${index % 11 === 0 ? "\r\n" : "\n"}`);
    if (index % 13 === 0) out.push(index % 2 === 0 ? "\n" : "\r\n");
    if (index % 17 === 0) out.push("-0\n");
  });
  out.push("000123");
  return Buffer.from(out.join(""));
}

/** The `Upload-Offset`s of the PATCHes in `requests`, as numbers. */
function patchOffsets(requests: readonly SentRequest[]): number[] {
  return requests.filter((request) => request.method === "PATCH").map((request) => Number(request.offset));
}

describe("sequential uploads in chunks cut inside lines", () => {
  test.each([1_000, 4_099])("chunkSize %i", async (chunkSize) => {
    const { bytes, crlfCut, zerosCut, numberCut } = await primesCutFor(chunkSize);
    const name = `chunks-${chunkSize}`;
    const { requests } = await upload(worker, bytes, {
      chunkSize,
      metadata: { name, maxPartBytes: String(MAX_PART_BYTES) },
    });
    const offsets = patchOffsets(requests);
    expect(offsets).toEqual(expect.arrayContaining([crlfCut, zerosCut, numberCut]));
    expect(offsets).toHaveLength(Math.ceil(bytes.length / chunkSize));
    await expectStoredLikePost(worker, name, bytes, { maxPartBytes: MAX_PART_BYTES, cuts: offsets.length - 1 });
  });

  test("creation-with-upload: the first chunk goes with the POST", async () => {
    const { bytes } = await primesCutFor(4_099);
    const name = "with-creation";
    const { requests } = await upload(worker, bytes, {
      chunkSize: 50_000,
      uploadDataDuringCreation: true,
      metadata: { name },
    });
    const created = requests.find((request) => request.method === "POST");
    expect(created?.status).toBe(201);
    expect(created?.answeredOffset).toBe("50000");
    await expectStoredLikePost(worker, name, bytes, { cuts: patchCount(requests) });
  });

  test("overridePatchMethod: PATCHes sent as POST with X-HTTP-Method-Override", async () => {
    const bytes = await primesText(3_000);
    const name = "override-patch";
    const { requests } = await upload(worker, bytes, {
      chunkSize: 5_000,
      overridePatchMethod: true,
      metadata: { name },
    });
    const overridden = requests.filter((request) => request.method === "POST" && request.offset !== undefined);
    expect(overridden).toHaveLength(Math.ceil(bytes.length / 5_000));
    for (const request of overridden) expect(request.status).toBe(204);
    await expectStoredLikePost(worker, name, bytes, { cuts: overridden.length - 1 });
  });

  test("the name comes from `filename` when there is no `name`, sanitised like the CLI's", async () => {
    const bytes = await primesText(1_000);
    const filename = "first 1000 primes (copy)..txt";
    const name = defaultName(filename);
    expect(name).toBe("first-1000-primes-copy-.txt");
    await upload(worker, bytes, { chunkSize: 2_000, metadata: { filename } });
    await expectStoredLikePost(worker, name, bytes);
  });
});

describe("chunks too small for the file's 4,000 parts", () => {
  test("are refused at the first PATCH with 413 naming a chunkSize; a client with larger chunks succeeds", async () => {
    const bytes = Buffer.from("1\n".repeat(4_500));
    const name = "tiny-chunks";
    const run = startUpload(worker, bytes, { chunkSize: 1, metadata: { name } });
    const error = await run.done.then(
      () => expect.fail("8,998 PATCHes of one byte each would make more than 4,000 parts"),
      (reason: unknown) => reason as tus.DetailedError,
    );
    expect(error.originalResponse?.getStatus(), error.message).toBe(413);
    expect(error.message).toMatch(/chunkSize/);
    const { chunkSize } = JSON.parse(error.originalResponse!.getBody()) as { error: string; chunkSize: number };
    expect(Math.ceil(bytes.length / chunkSize)).toBeLessThanOrEqual(4_000);
    expect(run.requests.filter((request) => request.method === "PATCH")).toHaveLength(1);
    expect(await fileExists(worker, name)).toBe(false);
    const url = run.upload.url!;
    expect([0, undefined]).toContain((await head(worker, url)).offset);
    await upload(worker, bytes, { uploadUrl: url, chunkSize: 3_001, metadata: { name } });
    await expectStoredLikePost(worker, name, bytes);
  });
});

describe("parallel uploads", () => {
  test("parallelUploads: 4, one PATCH per partial; the partials carry no name, the final POST does", async () => {
    const { bytes } = await primesCutFor(4_099);
    const name = "parallel-4";
    const { requests } = await upload(worker, bytes, {
      parallelUploads: 4,
      metadata: { name, maxPartBytes: String(MAX_PART_BYTES) },
    });
    const creations = requests.filter((request) => request.method === "POST");
    const partials = creations.filter((request) => request.concat === "partial");
    expect(partials).toHaveLength(4);
    for (const partial of partials) {
      expect(partial.status).toBe(201);
      expect(partial.metadata ?? "").not.toMatch(/\bname\b/);
    }
    const final = creations.find((request) => request.concat?.startsWith("final;"));
    expect(final?.status).toBe(201);
    expect(final?.metadata).toMatch(/\bname\b/);
    expect(patchCount(requests)).toBe(4);
    await expectStoredLikePost(worker, name, bytes, { maxPartBytes: MAX_PART_BYTES, cuts: 3 });
  });

  test("parallelUploads: 4 with chunkSize: several PATCHes per partial", async () => {
    const { bytes } = await primesCutFor(4_099);
    const name = "parallel-4-chunked";
    const { requests } = await upload(worker, bytes, {
      parallelUploads: 4,
      chunkSize: 9_999,
      metadata: { name },
    });
    const patches = patchCount(requests);
    expect(patches).toBeGreaterThanOrEqual(4 * Math.floor(bytes.length / 4 / 9_999));
    await expectStoredLikePost(worker, name, bytes, { cuts: patches - 1 });
  });
});

describe("non-canonical input", () => {
  const handMade =
    "007\r\n\r\n-0\n\n000\n-0012\r\n42\n\n\n9007199254740991\r\n-9007199254740991\n" +
    "00000000000000000000000000000000000000001\n\r\n-000\r\n5\n-7\r\n0\n13";

  test("every cut: chunkSize 1 over CRLF, leading zeros, blank lines, -0 and no final newline", async () => {
    const bytes = Buffer.from(handMade);
    const name = "non-canonical-bytewise";
    const { requests } = await upload(worker, bytes, { chunkSize: 1, metadata: { name } });
    expect(patchCount(requests)).toBe(bytes.length);
    const { viaTus } = await expectStoredLikePost(worker, name, bytes);
    expectSameBytes(viaTus.content, canonical(handMade), "canonical form");
  });

  test("lines longer than many chunks: runs of leading zeros, a '-' and its zeros, blank lines", async () => {
    const all = await primes();
    const text = new CutText();
    text.append(all.subarray(0, lineStartFrom(all, 20_000)));
    text.append(`${"0".repeat(50_000)}42\n-${"0".repeat(30_000)}7\r\n${"\r\n".repeat(5_000)}${"0".repeat(20_000)}\n`);
    text.append(all.subarray(lineStartFrom(all, 20_000), lineStartFrom(all, 60_000)));
    const bytes = text.bytes();
    const name = "long-lines";
    const { requests } = await upload(worker, bytes, { chunkSize: 1_000, metadata: { name } });
    const { viaTus } = await expectStoredLikePost(worker, name, bytes, { cuts: patchCount(requests) - 1 });
    expectSameBytes(viaTus.content, canonical(bytes.toString()), "canonical form");
  });

  test("a large non-canonical file in chunks of 4,099 bytes", async () => {
    const bytes = await nonCanonicalPrimes(30_000);
    const name = "non-canonical-chunks";
    const { requests } = await upload(worker, bytes, { chunkSize: 4_099, metadata: { name } });
    const { viaTus } = await expectStoredLikePost(worker, name, bytes, { cuts: patchCount(requests) - 1 });
    expectSameBytes(viaTus.content, canonical(bytes.toString()), "canonical form");
  });

  test("parallelUploads: 4 cut after a \\r, inside leading zeros and inside a -0", async () => {
    const bytes = await nonCanonicalPrimes(30_000);
    const afterCr = bytes.indexOf("\r\n", bytes.length >> 2) + 1;
    const insideZeros = bytes.indexOf("\n000", bytes.length >> 1) + 2;
    const insideMinusZero = bytes.indexOf("\n-0\n", (bytes.length * 3) >> 2) + 2;
    expect(bytes.subarray(afterCr - 1, afterCr + 1).toString()).toBe("\r\n");
    expect(bytes.subarray(insideZeros - 1, insideZeros + 2).toString()).toBe("000");
    expect(bytes.subarray(insideMinusZero - 1, insideMinusZero + 2).toString()).toBe("-0\n");
    const cuts = [0, afterCr, insideZeros, insideMinusZero, bytes.length];
    const name = "non-canonical-parallel";
    await upload(worker, bytes, {
      parallelUploads: 4,
      parallelUploadBoundaries: cuts.slice(0, 4).map((start, index) => ({ start, end: cuts[index + 1]! })),
      metadata: { name },
    });
    const { viaTus } = await expectStoredLikePost(worker, name, bytes, { cuts: 3 });
    expectSameBytes(viaTus.content, canonical(bytes.toString()), "canonical form");
  });
});

describe("resuming with a new client after an abort", () => {
  /** Starts an upload of `bytes` with `options` and aborts it once `share` of the bytes are accepted. */
  async function abortMidway(bytes: Buffer, options: Parameters<typeof startUpload>[2], share = 0.4) {
    let aborted!: (accepted: number) => void;
    const abortedAt = new Promise<number>((resolve) => {
      aborted = resolve;
    });
    let accepted = 0;
    const run = startUpload(worker, bytes, {
      ...options,
      onChunkComplete: (size) => {
        accepted += size;
        if (accepted >= bytes.length * share) {
          void run.upload.abort();
          aborted(accepted);
        }
      },
    });
    void run.done.catch(() => undefined);
    return { run, accepted: await abortedAt };
  }

  test("from the stored uploadUrl", async () => {
    const bytes = (await primesCutFor(3_001)).bytes.subarray(0, 120_000);
    const name = "resumed-by-url";
    const { run, accepted } = await abortMidway(bytes, { chunkSize: 3_001, metadata: { name } });
    const url = run.upload.url!;
    const before = await head(worker, url);
    expect(before.status).toBeLessThan(300);
    expect(before.offset).toBe(accepted);
    expect(before.offset).toBeGreaterThan(0);
    expect(before.length).toBe(bytes.length);
    expect(await fileExists(worker, name)).toBe(false);
    const second = await upload(worker, Buffer.from(bytes), {
      uploadUrl: url,
      chunkSize: 4_999,
      metadata: { name },
    });
    expect(second.requests.some((request) => request.method === "POST")).toBe(false);
    expect(patchOffsets(second.requests)[0]).toBe(accepted);
    await expectStoredLikePost(worker, name, bytes, {
      cuts: patchCount(run.requests) + patchCount(second.requests) - 1,
    });
  });

  test("through findPreviousUploads and resumeFromPreviousUpload with a shared URL storage", async () => {
    const bytes = (await primesCutFor(2_500)).bytes.subarray(0, 100_000);
    const name = "resumed-from-storage";
    const urlStorage = new MemoryUrlStorage();
    const { accepted } = await abortMidway(bytes, { chunkSize: 2_500, metadata: { name }, urlStorage });
    const [stored] = await urlStorage.findAllUploads();
    const before = await head(worker, stored!.uploadUrl!);
    expect(before.offset).toBe(accepted);
    expect(before.offset).toBeGreaterThan(0);
    const second = await upload(
      worker,
      Buffer.from(bytes),
      { chunkSize: 2_500, metadata: { name }, urlStorage },
      async (client) => {
        const previous = await client.findPreviousUploads();
        expect(previous).toHaveLength(1);
        client.resumeFromPreviousUpload(previous[0]!);
      },
    );
    expect(second.url).toBe(stored!.uploadUrl);
    expect(patchOffsets(second.requests)[0]).toBe(accepted);
    await expectStoredLikePost(worker, name, bytes);
  });

  test("a parallel upload, aborted with PATCHes in flight, resumed partial by partial", async () => {
    const bytes = (await primesCutFor(4_099)).bytes;
    const name = "resumed-parallel";
    const urlStorage = new MemoryUrlStorage();
    const options = { parallelUploads: 4, chunkSize: 7_000, metadata: { name }, urlStorage };
    await abortMidway(bytes, options, 0.3);
    const [stored] = await urlStorage.findAllUploads();
    const partials = stored!.parallelUploadUrls!;
    expect(partials).toHaveLength(4);
    const offsets: number[] = [];
    for (const url of partials) {
      const state = await head(worker, url);
      expect(state.status).toBeLessThan(300);
      expect(state.headers.get("Upload-Concat")).toBe("partial");
      offsets.push(state.offset!);
    }
    expect(offsets.some((offset) => offset > 0)).toBe(true);
    // Retries as tus-js-client makes them by default: an aborted PATCH may still hold its upload for a moment.
    const second = await upload(
      worker,
      Buffer.from(bytes),
      { ...options, retryDelays: [0, 500, 1_000, 2_000, 4_000] },
      async (client) => {
        const previous = await client.findPreviousUploads();
        client.resumeFromPreviousUpload(previous[0]!);
      },
    );
    expect(second.requests.filter((request) => request.method === "POST" && request.concat === "partial")).toEqual([]);
    await expectStoredLikePost(worker, name, bytes);
  });
});

describe("deferred length", () => {
  test("uploadLengthDeferred from a Node Readable in chunks of 4,099 bytes", async () => {
    const { bytes } = await primesCutFor(4_099);
    expect(bytes.length % 4_099).not.toBe(0); // tus-js-client's stream source waits forever on an exact multiple
    const name = "deferred-stream";
    const { requests } = await upload(worker, byteStream(bytes), {
      uploadLengthDeferred: true,
      chunkSize: 4_099,
      metadata: { name },
    });
    const created = requests.find((request) => request.method === "POST");
    expect(created?.deferLength).toBe("1");
    expect(created?.length).toBeUndefined();
    const patches = requests.filter((request) => request.method === "PATCH");
    expect(patches.at(-1)?.length).toBe(String(bytes.length));
    await expectStoredLikePost(worker, name, bytes, { cuts: patches.length - 1 });
  });

  test("a non-canonical stream whose length is known only at its end", async () => {
    const bytes = await nonCanonicalPrimes(8_000);
    const name = "deferred-non-canonical";
    await upload(worker, byteStream(bytes, 777), {
      uploadLengthDeferred: true,
      chunkSize: 5_003,
      metadata: { name },
    });
    await expectStoredLikePost(worker, name, bytes);
  });
});

describe("two clients racing one name", () => {
  test("both succeed and the file is exactly one of them", async () => {
    const all = await primes();
    const one = all.subarray(0, lineStartFrom(all, 90_000));
    const other = Buffer.from((await nonCanonicalPrimes(12_000)).toString().replaceAll("7", "8"));
    const name = "raced";
    const [first, second] = await Promise.allSettled([
      upload(worker, one, { chunkSize: 3_000, metadata: { name } }),
      upload(worker, other, { chunkSize: 3_000, metadata: { name } }),
    ]);
    expect(first.status, String((first as PromiseRejectedResult).reason)).toBe("fulfilled");
    expect(second.status, String((second as PromiseRejectedResult).reason)).toBe("fulfilled");
    const stored = await storedFile(worker, name);
    const candidates = [one, other].map((bytes) => canonical(bytes.toString()));
    const winner = candidates.findIndex((bytes) => bytes.equals(stored.content));
    expect(winner, "the stored content is neither upload's").toBeGreaterThanOrEqual(0);
    const reference = `${name}-${winner}.post`;
    const posted = await worker.api(`/files/${reference}`, { method: "POST", body: asBody([one, other][winner]!) });
    expect(posted.status).toBe(201);
    const { manifest } = await storedFile(worker, reference);
    expect(stored.manifest.totals.numbers).toBe(manifest.totals.numbers);
    expect(stored.manifest.totals.bytes).toBe(manifest.totals.bytes);
  });
});
