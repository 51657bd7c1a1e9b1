/**
 * Helpers of the tus tests (`test/tus/*.test.ts`): a worker in local workerd reached over real HTTP, tus-js-client
 * uploads run to their end, inputs of primes with lines placed where the uploads cut them, and the check that a
 * file uploaded with tus is stored byte for byte as one `POST /files/:name` of the same bytes stores it.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import * as tus from "tus-js-client";
import { expect, vi } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { primeTextStream } from "../../src/numbers/prime-text-stream.ts";
import { useRemoteWorker } from "../cli/remote-worker.ts";
import { localBucketKeys } from "../http/local-bucket.ts";

/** The options of a `tus.Upload` (tus-js-client does not export their type). */
export type UploadOptions = NonNullable<ConstructorParameters<typeof tus.Upload>[1]>;

/** What a test file reaches its worker with. */
export interface TusWorker {
  /** The worker's origin, e.g. `http://127.0.0.1:41873`. */
  readonly url: string;
  /** The bearer token every write needs. */
  readonly token: string;
  /** The tus creation endpoint, `<origin>/tus`. */
  readonly endpoint: string;
  /** Where the worker keeps its state (the local R2 bucket is under `v3/`). */
  readonly stateDir: string;
  /** `fetch` of `path` (relative to the origin, or absolute) with the bearer token. */
  api(path: string, init?: RequestInit): Promise<Response>;
  /** `fetch` of `path` with the bearer token and `Tus-Resumable: 1.0.0`. */
  tus(path: string, init?: RequestInit): Promise<Response>;
  /** Stops the worker (the file's `afterAll` stops it too; stopping twice is harmless). */
  stop(): Promise<void>;
}

/**
 * Starts one worker in local workerd (local R2, real HTTP) for the test file, before its tests, and stops it
 * after them; `vars` override the worker's settings.
 *
 * @example
 * ```ts
 * const worker = useTusWorker("drainpipe-tus-");
 * // in a test: await worker.tus("/tus", { method: "POST", headers: { "Upload-Length": "0" } });
 * ```
 */
export function useTusWorker(prefix: string, vars: Record<string, string> = {}): TusWorker {
  const fixture = useRemoteWorker(prefix, vars);
  const api = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(new URL(path, fixture.worker.url), {
      ...init,
      headers: { Authorization: `Bearer ${fixture.worker.token}`, ...(init.headers as Record<string, string>) },
    });
  return {
    get url() {
      return fixture.worker.url;
    },
    get token() {
      return fixture.worker.token;
    },
    get endpoint() {
      return `${fixture.worker.url}/tus`;
    },
    get stateDir() {
      return fixture.worker.stateDir;
    },
    api,
    tus: (path, init = {}) =>
      api(path, { ...init, headers: { "Tus-Resumable": "1.0.0", ...(init.headers as Record<string, string>) } }),
    stop: () => fixture.worker.stop(),
  };
}

/** One request a tus-js-client upload sent, and the status it got. */
export interface SentRequest {
  /** `POST`, `PATCH`, `HEAD` or `DELETE`. */
  method: string;
  /** The absolute URL. */
  url: string;
  /** The request's `Upload-Offset` header, if any. */
  offset: string | undefined;
  /** The request's `Upload-Length` header, if any. */
  length: string | undefined;
  /** The request's `Upload-Defer-Length` header, if any. */
  deferLength: string | undefined;
  /** The request's `Upload-Concat` header, if any. */
  concat: string | undefined;
  /** The request's `Upload-Metadata` header, if any. */
  metadata: string | undefined;
  /** The response's status. */
  status: number;
  /** The response's `Location` header, if any. */
  location: string | undefined;
  /** The response's `Upload-Offset` header, if any. */
  answeredOffset: string | undefined;
}

/** A tus-js-client upload under way, with what it has sent so far. */
export interface UploadRun {
  /** The upload (to abort it, or read its `url`). */
  readonly upload: tus.Upload;
  /** Every request it sent and was answered, in the order the answers came. */
  readonly requests: SentRequest[];
  /** Settles when the upload succeeds (with its URL) or fails (with tus-js-client's error). */
  readonly done: Promise<string>;
}

/**
 * Starts a tus-js-client upload of `source` to the endpoint of `worker` with its token and `options` (retries off
 * unless `options` say otherwise), recording every request it sends; `prepare` runs first when given (to resume a
 * previous upload, say). `onSuccess`, `onError` and `onAfterResponse` of `options` are called too.
 *
 * @example
 * ```ts
 * const run = startUpload(worker, Buffer.from("1\n2\n"), { metadata: { name: "two" } });
 * await run.done;
 * ```
 */
export function startUpload(
  worker: TusWorker,
  source: Buffer | Readable,
  options: UploadOptions = {},
  prepare?: (upload: tus.Upload) => Promise<void>,
): UploadRun {
  const requests: SentRequest[] = [];
  let upload: tus.Upload | undefined;
  const done = new Promise<string>((resolve, reject) => {
    upload = new tus.Upload(source as Buffer, {
      endpoint: worker.endpoint,
      retryDelays: null,
      ...options,
      headers: { Authorization: `Bearer ${worker.token}`, ...options.headers },
      onAfterResponse: async (request, response) => {
        requests.push({
          method: request.getMethod(),
          url: request.getURL(),
          offset: request.getHeader("Upload-Offset"),
          length: request.getHeader("Upload-Length"),
          deferLength: request.getHeader("Upload-Defer-Length"),
          concat: request.getHeader("Upload-Concat"),
          metadata: request.getHeader("Upload-Metadata"),
          status: response.getStatus(),
          location: response.getHeader("Location"),
          answeredOffset: response.getHeader("Upload-Offset"),
        });
        await options.onAfterResponse?.(request, response);
      },
      onSuccess: (payload) => {
        options.onSuccess?.(payload);
        resolve(upload?.url ?? "");
      },
      onError: (error) => {
        options.onError?.(error);
        reject(error);
      },
    });
    const started = upload;
    if (prepare === undefined) started.start();
    else prepare(started).then(() => started.start(), reject);
  });
  return { upload: upload!, requests, done };
}

/** Runs a tus-js-client upload to its end (see {@linkcode startUpload}); resolves with what it sent. */
export async function upload(
  worker: TusWorker,
  source: Buffer | Readable,
  options: UploadOptions = {},
  prepare?: (upload: tus.Upload) => Promise<void>,
) {
  const run = startUpload(worker, source, options, prepare);
  const url = await run.done;
  return { url, requests: run.requests };
}

/** The number of `PATCH` requests among `requests` that were answered `204`. */
export function patchCount(requests: readonly SentRequest[]): number {
  return requests.filter((request) => request.method === "PATCH" && request.status === 204).length;
}

/** The first `count` primes as text, one per line. */
export async function primesText(count: number): Promise<Buffer> {
  return Buffer.from(await new Response(primeTextStream(count)).arrayBuffer());
}

/** `bytes` as a Node byte stream (not object mode) that hands them out in pieces of `piece` bytes. */
export function byteStream(bytes: Uint8Array, piece = 3_000): Readable {
  function* pieces() {
    for (let offset = 0; offset < bytes.length; offset += piece) {
      yield Buffer.from(bytes.subarray(offset, offset + piece));
    }
  }
  return Readable.from(pieces(), { objectMode: false });
}

/**
 * Builds a text file from pieces, padding it with short filler lines (`7\n`, `11\n`) so that a chosen byte of a
 * piece lands right after a chosen cut: how the tests put a cut right after the `\r` of a CRLF or inside a run
 * of leading zeros.
 */
export class CutText {
  private readonly pieces: Buffer[] = [];
  private size = 0;

  /** Bytes so far. */
  get length(): number {
    return this.size;
  }

  /** Appends `text` (a string is UTF-8). */
  append(text: string | Uint8Array): this {
    const bytes = typeof text === "string" ? Buffer.from(text) : Buffer.from(text);
    this.pieces.push(bytes);
    this.size += bytes.length;
    return this;
  }

  /**
   * Appends filler lines, then `text` placed so that its byte `at` is the first byte after a multiple of `every`
   * (the next one at least 3 bytes ahead); returns that multiple, the position of the cut.
   */
  appendCut(text: string, at: number, every: number): number {
    let cut = Math.ceil((this.size + at) / every) * every;
    while (!fillable(cut - at - this.size)) cut += every;
    this.fill(cut - at - this.size);
    this.append(text);
    return cut;
  }

  /**
   * Appends filler lines, then `text` placed so that its byte `at` is the byte at `position`; `position` must
   * leave a gap of 0, 2 or more than 2 bytes.
   */
  appendAt(text: string, at: number, position: number): void {
    const gap = position - at - this.size;
    if (!fillable(gap)) throw new RangeError(`cannot fill a gap of ${gap} bytes with lines`);
    this.fill(gap);
    this.append(text);
  }

  /** The text built so far. */
  bytes(): Buffer {
    return Buffer.concat(this.pieces);
  }

  private fill(gap: number): void {
    let rest = gap;
    if (rest % 2 === 1) {
      this.append("11\n");
      rest -= 3;
    }
    this.append("7\n".repeat(rest / 2));
  }
}

function fillable(gap: number): boolean {
  return gap === 0 || gap === 2 || gap >= 3;
}

/** Reads the manifest and the content of the file `name`; fails the test when either is not `200`. */
export async function storedFile(worker: TusWorker, name: string): Promise<{ manifest: Manifest; content: Buffer }> {
  const manifestResponse = await worker.api(`/files/${name}`);
  expect(manifestResponse.status, `GET /files/${name}`).toBe(200);
  const contentResponse = await worker.api(`/files/${name}/content`);
  expect(contentResponse.status, `GET /files/${name}/content`).toBe(200);
  return {
    manifest: (await manifestResponse.json()) as Manifest,
    content: Buffer.from(await contentResponse.arrayBuffer()),
  };
}

/** Fails the test, naming the first differing byte and its surroundings, unless `actual` equals `expected`. */
export function expectSameBytes(actual: Uint8Array, expected: Uint8Array, what: string): void {
  const a = Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength);
  const b = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  if (a.equals(b)) return;
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1;
  const around = (bytes: Buffer) => JSON.stringify(bytes.subarray(Math.max(0, index - 20), index + 20).toString());
  expect.fail(
    `${what}: ${a.length} bytes where ${b.length} were expected, first difference at byte ${index}: ` +
      `${around(a)} where ${around(b)} was expected`,
  );
}

/** Options of {@linkcode expectStoredLikePost}. */
export interface LikePostOptions {
  /** The `maxPartBytes` the tus upload asked for (in its metadata), also asked of the POST. */
  maxPartBytes?: number;
  /** How many times the tus upload cut the file (PATCH boundaries and partial boundaries): each may add a part. */
  cuts?: number;
}

/**
 * Checks that the file `name`, stored by a tus upload of `bytes`, is what one `POST /files/<name>.post` of the
 * same bytes stores: the same content byte for byte, the same `totals.numbers` and `totals.bytes`, and at most
 * one more part per cut. Resolves with both stored files.
 */
export async function expectStoredLikePost(
  worker: TusWorker,
  name: string,
  bytes: Uint8Array,
  options: LikePostOptions = {},
) {
  const reference = `${name}.post`;
  const query = options.maxPartBytes === undefined ? "" : `?maxPartBytes=${options.maxPartBytes}`;
  const posted = await worker.api(`/files/${reference}${query}`, { method: "POST", body: asBody(bytes) });
  expect(posted.status, await posted.clone().text()).toBe(201);
  const viaTus = await storedFile(worker, name);
  const viaPost = await storedFile(worker, reference);
  expectSameBytes(viaTus.content, viaPost.content, `content of "${name}" (tus) against "${reference}" (POST)`);
  expect(viaTus.manifest.totals.numbers).toBe(viaPost.manifest.totals.numbers);
  expect(viaTus.manifest.totals.bytes).toBe(viaPost.manifest.totals.bytes);
  expect(viaTus.manifest.totals.bytes).toBe(viaTus.content.length);
  if (options.cuts !== undefined) {
    expect(viaTus.manifest.totals.parts).toBeLessThanOrEqual(viaPost.manifest.totals.parts + options.cuts);
  }
  if (options.maxPartBytes !== undefined) {
    expect(viaTus.manifest.maxPartBytes).toBe(options.maxPartBytes);
    for (const part of viaTus.manifest.parts) expect(part.bytes).toBeLessThanOrEqual(options.maxPartBytes);
  }
  return { viaTus, viaPost };
}

/** The canonical form of newline-separated integers, worked out here independently of the worker. */
export function canonical(text: string): Buffer {
  const lines = text
    .split("\n")
    .map((line) => line.replace(/\r$/, ""))
    .filter((line) => line !== "");
  return Buffer.from(lines.map((line) => `${BigInt(line)}\n`).join(""));
}

/** The JSON error body of a `400 invalid-number`. */
export interface BadLine {
  /** `invalid-number`. */
  error: string;
  /** The human-readable text. */
  detail: string;
  /** 1-based line of the file. */
  line: number;
  /** 1-based byte column. */
  column: number;
  /** 0-based byte offset in the file. */
  offset: number;
}

/** What one `POST /files/<name>` of `bytes` answers: a `400 invalid-number`, or the test fails. */
export async function postedBadLine(worker: TusWorker, name: string, bytes: Uint8Array): Promise<BadLine> {
  const response = await worker.api(`/files/${name}`, { method: "POST", body: asBody(bytes) });
  const body = await response.text();
  expect(response.status, body).toBe(400);
  const error = JSON.parse(body) as BadLine;
  expect(error.error).toBe("invalid-number");
  return error;
}

/**
 * Checks that tus-js-client's `error` reports the bad line `expected` of the FILE: its message (which holds the
 * response text) names `line N` and the column, and the response is `400 invalid-number` with the same line,
 * column and offset.
 */
export function expectBadLineError(error: unknown, expected: Pick<BadLine, "line" | "column" | "offset">): void {
  expect(error).toBeInstanceOf(tus.DetailedError);
  const detailed = error as tus.DetailedError;
  expect(detailed.message).toMatch(new RegExp(`\\bline ${expected.line}\\b`));
  expect(detailed.message).toMatch(new RegExp(`"column":\\s*${expected.column}\\b|\\bcolumn ${expected.column}\\b`));
  expect(detailed.originalResponse?.getStatus(), detailed.message).toBe(400);
  const body = JSON.parse(detailed.originalResponse?.getBody() ?? "{}") as BadLine;
  expect(body).toMatchObject({
    error: "invalid-number",
    line: expected.line,
    column: expected.column,
    offset: expected.offset,
  });
  expect(body.detail).toMatch(new RegExp(`\\bline ${expected.line}\\b`));
}

/** The status and the tus headers of a `HEAD` of the upload at `url`. */
export async function head(worker: TusWorker, url: string) {
  const response = await worker.tus(url, { method: "HEAD" });
  const header = (name: string) => response.headers.get(name);
  return {
    status: response.status,
    offset: header("Upload-Offset") === null ? undefined : Number(header("Upload-Offset")),
    length: header("Upload-Length") === null ? undefined : Number(header("Upload-Length")),
    headers: response.headers,
  };
}

/** Whether the file `name` exists: `GET /files/:name` answers `200` (`true`) or `404` (`false`), nothing else. */
export async function fileExists(worker: TusWorker, name: string): Promise<boolean> {
  const response = await worker.api(`/files/${name}`);
  await response.body?.cancel();
  expect([200, 404]).toContain(response.status);
  return response.status === 200;
}

/** Every name `GET /files` lists, all pages. */
export async function listedNames(worker: TusWorker): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    const response = await worker.api(`/files${query}`);
    expect(response.status).toBe(200);
    const page = (await response.json()) as { files: { name: string }[]; cursor: string | null };
    names.push(...page.files.map((file) => file.name));
    cursor = page.cursor;
  } while (cursor !== null);
  return names;
}

/**
 * Waits until every upload in `urls` is gone (`HEAD` answers `404` or `410`), polling, since the worker says
 * nothing when it has removed one; fails after `timeoutMs`, naming what still answers.
 */
export async function untilGone(worker: TusWorker, urls: readonly string[], timeoutMs = 20_000): Promise<void> {
  await vi.waitFor(
    async () => {
      const alive: string[] = [];
      for (const url of urls) {
        const { status, offset } = await head(worker, url);
        if (status !== 404 && status !== 410) alive.push(`${url}: HEAD ${status}, Upload-Offset ${offset}`);
      }
      expect(alive).toEqual([]);
    },
    { timeout: timeoutMs, interval: 250 },
  );
}

/** Every key in the worker's local bucket; the worker must be stopped first (see {@linkcode TusWorker.stop}). */
export function bucketKeys(stateDir: string): Promise<string[]> {
  return localBucketKeys(stateDir);
}

/** SHA-1 or SHA-256 of `bytes`, base64, as `Upload-Checksum` carries it. */
export function checksum(algorithm: "sha1" | "sha256", bytes: Uint8Array): string {
  return createHash(algorithm).update(bytes).digest("base64");
}

/** tus-js-client's URL storage interface (not exported by its types). */
type UrlStorage = NonNullable<UploadOptions["urlStorage"]>;
/** One upload a URL storage remembers. */
type PreviousUpload = Awaited<ReturnType<UrlStorage["findAllUploads"]>>[number];

/**
 * A URL storage in memory, shared by the clients of one test: what a browser's `localStorage` is to two page
 * loads, so that a new client finds the upload an earlier one left (`findPreviousUploads`).
 */
export class MemoryUrlStorage implements UrlStorage {
  private readonly uploads = new Map<string, { fingerprint: string; upload: PreviousUpload }>();
  private next = 0;

  /** Every stored upload. */
  async findAllUploads(): Promise<PreviousUpload[]> {
    return [...this.uploads.values()].map((entry) => entry.upload);
  }

  /** The stored uploads of `fingerprint`. */
  async findUploadsByFingerprint(fingerprint: string): Promise<PreviousUpload[]> {
    return [...this.uploads.values()].filter((entry) => entry.fingerprint === fingerprint).map((entry) => entry.upload);
  }

  /** Forgets the upload stored under `urlStorageKey`. */
  async removeUpload(urlStorageKey: string): Promise<void> {
    this.uploads.delete(urlStorageKey);
  }

  /** Stores `upload` for `fingerprint`; resolves with its key. */
  async addUpload(fingerprint: string, upload: PreviousUpload): Promise<string> {
    this.next += 1;
    const key = `upload-${this.next}`;
    this.uploads.set(key, { fingerprint, upload: { ...upload, urlStorageKey: key } });
    return key;
  }
}

/** `bytes` typed as a fetch body (the tests' bytes never live in a SharedArrayBuffer). */
export function asBody(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return bytes as Uint8Array<ArrayBuffer>;
}
