/**
 * Scenario 11's clients and checks: a tus upload with tus-js-client in Node from a file on disk, the first whole
 * lines of a file up to a size, and SHA-256 digests of a local file and of a stored file's content.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { pipeline } from "node:stream/promises";
import { type DetailedError, type HttpRequest, type HttpResponse, Upload } from "tus-js-client";
import type { WorkerClient } from "../../src/cli/worker-client.ts";
import type { Manifest } from "../../src/files/manifest.ts";

/** Options of {@linkcode tusUpload}: the settings the README recommends, and where to send. */
export interface TusUploadOptions {
  /** The worker's origin, e.g. `http://127.0.0.1:41873`: the endpoint is `<url>/tus`. */
  url: string;
  /** The worker's bearer token. */
  token: string;
  /** The name to store the file under (metadata `name`; `filename` is the local file's base name). */
  name: string;
  /** The largest PATCH body: the worker's `GET /limits` `maxSegmentBytes`. */
  chunkSize: number;
  /** How many partial uploads run at once (`parallelUploads`; 1: one upload, no concatenation). */
  parallelUploads: number;
}

/** What {@linkcode tusUpload} saw of the requests tus-js-client sent. */
export interface TusUploadOutcome {
  /** How many responses tus-js-client received (creations, PATCHes, the final concatenation). */
  requests: number;
  /**
   * Every response with a status of 400 or more, and every request tus-js-client retried, as
   * "<method> <url> → <status>: <body>" (empty when the worker did nothing wrong).
   */
  refusals: string[];
  /**
   * Seconds from sending the final concatenation (`Upload-Concat: final;…`, when `parallelUploads` > 1) to its
   * response: the request in which the worker stores the whole file from the partial uploads' pieces.
   */
  finalSeconds?: number;
}

/** A tus request and its response (or error) as one line of a report. */
function describeExchange(request: HttpRequest, response: HttpResponse | null, error?: Error | null): string {
  const answer =
    response === null
      ? `no response (${error?.message ?? "unknown error"})`
      : `${response.getStatus()}: ${response.getBody().slice(0, 500)}`;
  return `${request.getMethod()} ${request.getURL()} → ${answer}`;
}

/**
 * Uploads the file at `path` to the worker's tus endpoint with tus-js-client (its Node file source: an
 * `fs.ReadStream` with a path, which tus-js-client reads one slice per request, never the whole file), with
 * tus-js-client's default retries; resolves when the upload has finished (the file is then published).
 *
 * @throws {Error} tus-js-client's error when the upload fails (after its retries).
 *
 * @example
 * ```ts
 * declare const worker: { url: string; token: string };
 * await tusUpload("primes.txt", { ...worker, name: "primes", chunkSize: 95_000_000, parallelUploads: 4 });
 * ```
 */
export function tusUpload(path: string, options: TusUploadOptions): Promise<TusUploadOutcome> {
  const outcome: TusUploadOutcome = { requests: 0, refusals: [] };
  const sentAt = new WeakMap<HttpRequest, number>();
  return new Promise((resolve, reject) => {
    const upload = new Upload(createReadStream(path), {
      endpoint: `${options.url}/tus`,
      chunkSize: options.chunkSize,
      parallelUploads: options.parallelUploads,
      metadata: { name: options.name, filename: basename(path) },
      headers: { Authorization: `Bearer ${options.token}` },
      onBeforeRequest: (request) => {
        sentAt.set(request, performance.now());
      },
      onAfterResponse: (request, response) => {
        outcome.requests++;
        const started = sentAt.get(request);
        if (request.getHeader("Upload-Concat")?.startsWith("final") && started !== undefined) {
          outcome.finalSeconds = (performance.now() - started) / 1000;
        }
        if (response.getStatus() >= 400) outcome.refusals.push(describeExchange(request, response));
      },
      // tus-js-client's own rule (no retry of a 4xx other than 409 and 423), recording every retry.
      onShouldRetry: (error: DetailedError, attempt: number) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        const retry = !(status >= 400 && status < 500 && status !== 409 && status !== 423);
        if (retry) {
          const exchange = describeExchange(error.originalRequest, error.originalResponse, error.causingError);
          outcome.refusals.push(`retry ${attempt + 1} after ${exchange}`);
        }
        return retry;
      },
      onSuccess: () => resolve(outcome),
      onError: reject,
    });
    upload.start();
  });
}

/** A file's bytes as {@linkcode fileDigest} and {@linkcode storedDigest} describe them. */
export interface Digest {
  /** SHA-256, hex. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
  /** Line breaks (`\n`): the numbers of a canonical numbers file. */
  lines: number;
}

/** Digests `chunks` as they come. */
async function digestOf(chunks: AsyncIterable<Uint8Array>): Promise<Digest> {
  const hash = createHash("sha256");
  let bytes = 0;
  let lines = 0;
  for await (const chunk of chunks) {
    hash.update(chunk);
    bytes += chunk.length;
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
  }
  return { sha256: hash.digest("hex"), bytes, lines };
}

/**
 * The {@linkcode Digest} of the local file at `path`, read in 1 MiB chunks.
 *
 * @example
 * ```ts
 * const { sha256, bytes, lines } = await fileDigest("primes.txt");
 * ```
 */
export function fileDigest(path: string): Promise<Digest> {
  return digestOf(createReadStream(path, { highWaterMark: 1 << 20 }));
}

/**
 * The stored file `name`'s manifest and the {@linkcode Digest} of its content as the worker streams it
 * (`GET /files/:name/content`, or part by part when one request may not read them all).
 *
 * @example
 * ```ts
 * declare const client: WorkerClient;
 * const { manifest, digest } = await storedDigest(client, "primes");
 * ```
 */
export async function storedDigest(
  client: WorkerClient,
  name: string,
): Promise<{ manifest: Manifest; digest: Digest }> {
  const manifest = await client.manifest(name);
  const { body } = await client.content(name);
  return { manifest, digest: await digestOf(body) };
}

/**
 * Writes to `output` the first whole lines of the file at `path` that fit in `maxBytes` (the file cut just after
 * its last line break at or before byte `maxBytes`; the whole file when it is no longer) and returns their size.
 *
 * @throws {RangeError} when the first `maxBytes` bytes hold no line break (or the file's last 64 KiB before them).
 *
 * @example
 * ```ts
 * const bytes = await writeLeadingLines("primes.txt", 95_000_000, "/tmp/head.txt"); // 94,999,996 or so
 * ```
 */
export async function writeLeadingLines(path: string, maxBytes: number, output: string): Promise<number> {
  const handle = await open(path, "r");
  let end: number;
  try {
    const { size } = await handle.stat();
    if (size <= maxBytes) {
      end = size;
    } else {
      const window = Math.min(maxBytes, 64 * 1024);
      const tail = new Uint8Array(window);
      const { bytesRead } = await handle.read(tail, 0, window, maxBytes - window);
      const lastBreak = tail.subarray(0, bytesRead).lastIndexOf(0x0a);
      if (lastBreak === -1) throw new RangeError(`Cannot cut ${path} at ${maxBytes} bytes: no line break before it`);
      end = maxBytes - window + lastBreak + 1;
    }
  } finally {
    await handle.close();
  }
  await pipeline(createReadStream(path, { start: 0, end: end - 1 }), createWriteStream(output));
  return end;
}
