import type {
  CompleteSessionRequest,
  FileSummary,
  Manifest,
  SearchResult,
  SegmentReceipt,
  SessionDescription,
  SessionWithSegments,
  SweepResult,
  UploadInFlight,
  WorkerLimits,
} from "../http-contract/bodies.ts";
import { ErrorCode } from "../http-contract/error-code.ts";
import { ATTEMPT_HEADER } from "../http-contract/headers.ts";
import { ReplyFormatError } from "../http-contract/reply-format-error.ts";
import {
  parseFileList,
  parseLinePosition,
  parseManifestReply,
  parseRemnantsRemoved,
  parseSearchResult,
  parseSegmentReceipt,
  parseSessionDescription,
  parseSessionWithSegments,
  parseSweepResult,
  parseUploadsListing,
  parseWorkerLimits,
} from "../http-contract/reply-parsers.ts";
import { versionEtag } from "../worker/validators.ts";
import { CliError } from "./cli-error.ts";
import { WorkerError } from "./worker-error.ts";

/** The content of a stored file as the worker streams it. */
export interface FileContent {
  /** The reassembled parts, from byte {@linkcode offset} on. */
  body: ReadableStream<Uint8Array>;
  /** The body's size from `Content-Length`, when the worker sent one. */
  size: number | undefined;
  /** Where in the file the body starts: 0, or where a resumed read continues. */
  offset: number;
  /** The version's entity tag (`ETag`), when the worker sent one: what a later read resumes against. */
  etag: string | undefined;
}

/** Lines of a stored file as `GET /files/:name/lines` answers them. */
export interface FileLines {
  /** The lines, each ended by `\n`. */
  text: string;
  /** The first line's index (0-based). */
  from: number;
  /** How many lines {@linkcode text} holds. */
  count: number;
  /** How many lines the file has. */
  total: number;
}

/** Options of {@linkcode WorkerClient.upload}. */
export interface UploadOptions {
  /** The body's exact size in bytes, sent as `Content-Length`; without it the body goes chunked. */
  size?: number | undefined;
  /** The part size limit; the worker's default when absent. */
  maxPartBytes?: number | undefined;
  /** A token naming this attempt (`Drainpipe-Attempt`), to find it in {@linkcode WorkerClient.uploads}. */
  attempt?: string | undefined;
  /** Aborts the upload: the request is cut off, and the worker removes what the attempt wrote. */
  signal?: AbortSignal | undefined;
}

/** What `DELETE /files/:name` did. */
export interface RemoveOutcome {
  /** Whether a complete file was removed. */
  existed: boolean;
  /** Leftover objects of dead uploads that were removed (when there was no complete file). */
  remnants: number;
}

/** What a whole sweep removed: the sum of its steps. */
export type SweepTotal = Omit<SweepResult, "cursor">;

/**
 * The drainpipe worker's HTTP API, seen from Node: one method per route, bearer-token authentication when a
 * token is given, and every failure turned into a {@linkcode CliError} (a {@linkcode WorkerError} for an
 * error status).
 *
 * @example
 * ```ts
 * declare const token: string; // the worker's API_TOKEN
 * const client = new WorkerClient("http://127.0.0.1:8787", token);
 * for (const file of await client.list()) console.log(file.name, file.totals.numbers);
 * ```
 */
export class WorkerClient {
  /** The worker's base URL, ending in `/`. */
  readonly url: string;
  readonly #token: string | undefined;

  /** A client of the worker at `url`, sending `Authorization: Bearer <token>` when `token` is set. */
  constructor(url: string, token?: string | undefined) {
    this.url = url.endsWith("/") ? url : `${url}/`;
    this.#token = token === "" ? undefined : token;
  }

  /**
   * The worker's limits (`GET /limits`), or `undefined` from a worker older than that route (it answers `404`
   * `not-found`): the caller then assumes the defaults.
   */
  async limits(): Promise<WorkerLimits | undefined> {
    try {
      const action = "read the worker's limits";
      return await this.#reply(await this.#request(action, "GET", "limits"), action, parseWorkerLimits);
    } catch (error) {
      if (error instanceof WorkerError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** Lists the complete files (`GET /files`). */
  async list(): Promise<FileSummary[]> {
    const files: FileSummary[] = [];
    let cursor: string | null = null;
    do {
      const path: string = cursor === null ? "files" : `files?cursor=${encodeURIComponent(cursor)}`;
      const page = await this.#reply(await this.#request("list files", "GET", path), "list files", parseFileList);
      files.push(...page.files);
      cursor = page.cursor;
    } while (cursor !== null);
    return files;
  }

  /** The manifest of `name` (`GET /files/:name`). */
  async manifest(name: string): Promise<Manifest> {
    const action = `read the manifest of "${name}"`;
    return this.#reply(await this.#request(action, "GET", filePath(name)), action, parseManifestReply);
  }

  /**
   * Streams `body` to `POST /files/:name` and returns the manifest. The body is sent as it is read, with a
   * `Content-Length` header when the size is known (chunked otherwise) and without `Expect: 100-continue`.
   */
  async upload(name: string, body: ReadableStream<Uint8Array>, options: UploadOptions): Promise<Manifest> {
    const query = options.maxPartBytes === undefined ? "" : `?maxPartBytes=${options.maxPartBytes}`;
    const headers: Record<string, string> = { "Content-Type": "text/plain" };
    if (options.size !== undefined) headers["Content-Length"] = String(options.size);
    if (options.attempt !== undefined) headers[ATTEMPT_HEADER] = options.attempt;
    const action = `upload "${name}"`;
    const response = await this.#request(action, "POST", `${filePath(name)}${query}`, {
      body,
      headers,
      signal: options.signal,
    });
    return this.#reply(response, action, parseManifestReply);
  }

  /** Opens an upload session of `name` (`POST /files/:name/uploads`). */
  async openSession(name: string, maxPartBytes?: number | undefined): Promise<SessionDescription> {
    const query = maxPartBytes === undefined ? "" : `?maxPartBytes=${maxPartBytes}`;
    const action = `open an upload session of "${name}"`;
    const response = await this.#request(action, "POST", `${sessionsPath(name)}${query}`);
    return this.#reply(response, action, parseSessionDescription);
  }

  /** The session `sessionId` of `name` with its received segments (`GET /files/:name/uploads/:sessionId`). */
  async session(name: string, sessionId: string): Promise<SessionWithSegments> {
    const action = `read upload session ${sessionId}`;
    return this.#reply(
      await this.#request(action, "GET", sessionPath(name, sessionId)),
      action,
      parseSessionWithSegments,
    );
  }

  /** Sends segment `index` of session `sessionId` with its `Content-Digest`. */
  async putSegment(
    name: string,
    sessionId: string,
    index: number,
    body: ReadableStream<Uint8Array>,
    options: { size: number; digest: string; signal?: AbortSignal | undefined },
  ): Promise<SegmentReceipt> {
    const action = `send segment ${index} of "${name}"`;
    const response = await this.#request(action, "PUT", `${sessionPath(name, sessionId)}/segments/${index}`, {
      body,
      headers: {
        "Content-Length": String(options.size),
        "Content-Type": "text/plain",
        "Content-Digest": `sha-256=:${options.digest}:`,
      },
      signal: options.signal,
    });
    return this.#reply(response, action, parseSegmentReceipt);
  }

  /** Completes session `sessionId` as a file of `segments` segments; resolves with the manifest. */
  async completeSession(name: string, sessionId: string, segments: number): Promise<Manifest> {
    const action = `complete the upload of "${name}"`;
    const response = await this.#request(action, "POST", `${sessionPath(name, sessionId)}/complete`, {
      body: new Response(JSON.stringify({ segments } satisfies CompleteSessionRequest)).body!,
      headers: { "Content-Type": "application/json" },
    });
    return this.#reply(response, action, parseManifestReply);
  }

  /** Aborts session `sessionId`: the worker removes everything it wrote. */
  async abortSession(name: string, sessionId: string): Promise<void> {
    await this.#request(`abort upload session ${sessionId}`, "DELETE", sessionPath(name, sessionId));
  }

  /** The uploads of `name` in flight (`GET /files/:name/uploads`). */
  async uploads(name: string): Promise<UploadInFlight[]> {
    const action = `list the uploads of "${name}"`;
    return (await this.#reply(await this.#request(action, "GET", sessionsPath(name)), action, parseUploadsListing))
      .uploads;
  }

  /** Removes every object in the bucket that nothing refers to (`POST /sweep`). */
  async sweep(): Promise<SweepTotal> {
    const total = { names: 0, removed: 0 };
    let cursor: string | null = null;
    do {
      const path: string = cursor === null ? "sweep" : `sweep?cursor=${encodeURIComponent(cursor)}`;
      const action = "sweep the bucket";
      const step = await this.#reply(await this.#request(action, "POST", path), action, parseSweepResult);
      total.names += step.names;
      total.removed += step.removed;
      cursor = step.cursor;
    } while (cursor !== null);
    return total;
  }

  /**
   * The reassembled content of `name` (`GET /files/:name/content`), streamed. When the file has more parts than
   * one request to the worker may read (`422 over-budget`, or `503 subrequest-limit` from a worker that counted on
   * more subrequests than its platform grants), it is read one request per part instead, each part checked against
   * the manifest's etag, so a file replaced meanwhile fails rather than mixing two versions.
   */
  async content(name: string): Promise<FileContent> {
    const action = `read the content of "${name}"`;
    let response: Response;
    try {
      response = await this.#request(action, "GET", `${filePath(name)}/content`);
    } catch (error) {
      const tooMany =
        error instanceof WorkerError && (error.is(ErrorCode.overBudget) || error.is(ErrorCode.subrequestLimit));
      if (tooMany) return this.#contentByParts(name);
      throw error;
    }
    return this.#fileContent(response, action, 0);
  }

  /**
   * The content of `name` from byte `offset` on, if its current version is still `etag` (`Range` with `If-Range`);
   * the whole content (`offset` 0) when the file was replaced meanwhile; `null` when the version is `etag` and
   * has no byte at `offset` or later (a download that had already finished).
   */
  async contentFrom(name: string, offset: number, etag: string): Promise<FileContent | null> {
    const action = `read the content of "${name}" from byte ${offset}`;
    let response: Response;
    try {
      response = await this.#request(action, "GET", `${filePath(name)}/content`, {
        headers: { Range: `bytes=${offset}-`, "If-Range": etag },
      });
    } catch (error) {
      if (error instanceof WorkerError && error.is(ErrorCode.rangeNotSatisfiable) && error.body.size === offset)
        return null;
      throw error;
    }
    return this.#fileContent(response, action, response.status === 206 ? offset : 0);
  }

  /**
   * Part `index` of `name` (`GET /files/:name/parts/:index`) if the current version is still `etag` (`If-Match`).
   *
   * @throws {CliError} (`replaced`) when the file was replaced or removed since `etag` was read.
   */
  async part(name: string, index: number, etag: string): Promise<ReadableStream<Uint8Array>> {
    const action = `read part ${index} of "${name}"`;
    let response: Response;
    try {
      response = await this.#request(action, "GET", `${filePath(name)}/parts/${index}`, {
        headers: { "If-Match": etag },
      });
    } catch (error) {
      if (!(error instanceof WorkerError && error.is(ErrorCode.preconditionFailed))) throw error;
      throw new CliError(`Cannot ${action}: "${name}" was replaced while it was read; run the command again`, {
        code: "replaced",
        cause: error,
      });
    }
    return failingClearly(response.body ?? new Response("").body!, action, this.url);
  }

  /** The {@linkcode FileContent} of a content `response` whose body starts at `offset`. */
  #fileContent(response: Response, action: string, offset: number): FileContent {
    const length = response.headers.get("Content-Length");
    const body = response.body ? failingClearly(response.body, action, this.url) : new Response("").body!;
    const etag = response.headers.get("ETag") ?? undefined;
    return { body, size: length === null ? undefined : Number(length), offset, etag };
  }

  /**
   * Lines `from` … `from + count − 1` of `name` (`GET /files/:name/lines`); `from` and `count` are sent as given, so
   * the worker's 400 names what is wrong with them. Without `count`, the worker's default (one line).
   */
  async lines(name: string, from: string, count?: string): Promise<FileLines> {
    const query = new URLSearchParams({ from, ...(count === undefined ? {} : { count }) });
    const action = `read lines of "${name}"`;
    const response = await this.#request(action, "GET", `${filePath(name)}/lines?${query}`);
    const position = this.#checked(action, () => parseLinePosition(response.headers));
    return { text: await this.#text(response, action), ...position };
  }

  /** The first line of `name` whose number is at least `value` (`GET /files/:name/search`; `value` sent as given). */
  async search(name: string, value: string): Promise<SearchResult> {
    const query = new URLSearchParams({ value });
    const action = `search "${name}"`;
    return this.#reply(
      await this.#request(action, "GET", `${filePath(name)}/search?${query}`),
      action,
      parseSearchResult,
    );
  }

  /**
   * Removes `name` and all its objects (`DELETE /files/:name`); a name that holds only leftovers of dead
   * uploads has them removed too. Fails with the worker's 404 when there is nothing at all.
   */
  async remove(name: string): Promise<RemoveOutcome> {
    const action = `remove "${name}"`;
    const response = await this.#request(action, "DELETE", filePath(name));
    if (response.status === 204) return { existed: true, remnants: 0 };
    const { remnants } = await this.#reply(response, action, parseRemnantsRemoved);
    return { existed: false, remnants };
  }

  /** The content of `name` read one part per request, in order, each of the version the manifest describes. */
  async #contentByParts(name: string): Promise<FileContent> {
    const manifest = await this.manifest(name);
    const etag = versionEtag(manifest);
    let index = 0;
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>({
      // Each pull enqueues a chunk or closes: a pull that did neither would not be called again.
      pull: async (controller) => {
        for (;;) {
          if (reader === undefined) {
            const record = manifest.parts[index];
            if (record === undefined) return controller.close();
            reader = (await this.part(name, index, etag)).getReader();
          }
          const next = await reader.read();
          if (!next.done) return controller.enqueue(next.value);
          reader = undefined;
          index += 1;
        }
      },
      cancel: (reason) => reader?.cancel(reason),
    });
    return { body, size: manifest.totals.bytes, offset: 0, etag };
  }

  /** The body of `response` to `action`, read whole and checked by `parse` (a reply parser of the HTTP contract). */
  async #reply<T>(response: Response, action: string, parse: (text: string) => T): Promise<T> {
    const text = await this.#text(response, action);
    return this.#checked(action, () => parse(text));
  }

  /** The whole text of `response`, a connection cut while reading it failing as a {@linkcode CliError}. */
  async #text(response: Response, action: string): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw requestFailed(action, this.url, error);
    }
  }

  /** What `parse` returns, a reply it finds malformed failing as a {@linkcode CliError} (`bad-reply`). */
  #checked<T>(action: string, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (!(error instanceof ReplyFormatError)) throw error;
      throw new CliError(
        `Cannot ${action}: the worker at ${this.url} sent a reply this client cannot read (${error.message})`,
        {
          code: "bad-reply",
          details: { url: this.url, reply: error.reply, field: error.field },
          cause: error,
        },
      );
    }
  }

  async #request(
    action: string,
    method: string,
    path: string,
    init: {
      body?: ReadableStream<Uint8Array>;
      headers?: Record<string, string>;
      signal?: AbortSignal | undefined;
    } = {},
  ): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#token !== undefined) headers.set("Authorization", `Bearer ${this.#token}`);
    // The bytes as stored: a compressed answer would have no Content-Length (for the progress bar) and, as a 206,
    // a body that Content-Range does not count.
    if (!headers.has("Accept-Encoding")) headers.set("Accept-Encoding", "identity");
    let response: Response;
    try {
      response = await fetch(new URL(path, this.url), {
        method,
        headers,
        // A streamed body is sent with `redirect: "error"`: with any other mode, Node's fetch (undici) tees the
        // body so that it could replay it on a redirect, and the unread branch buffers the whole upload
        // (nodejs/undici#4058). A stream cannot be replayed anyway.
        ...(init.body ? { body: init.body, duplex: "half", redirect: "error" } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
      } as RequestInit);
    } catch (error) {
      throw requestFailed(action, this.url, error);
    }
    if (!response.ok) throw await WorkerError.from(response, action);
    return response;
  }
}

/** `body` with its read errors (a connection cut mid-stream) turned into a {@linkcode CliError} naming `action`. */
function failingClearly(body: ReadableStream<Uint8Array>, action: string, url: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
        } catch (error) {
          throw requestFailed(action, url, error);
        }
        if (result.done) controller.close();
        else controller.enqueue(result.value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    new CountQueuingStrategy({ highWaterMark: 0 }),
  );
}

function filePath(name: string): string {
  return `files/${encodeURIComponent(name)}`;
}

function sessionsPath(name: string): string {
  return `${filePath(name)}/uploads`;
}

function sessionPath(name: string, sessionId: string): string {
  return `${sessionsPath(name)}/${encodeURIComponent(sessionId)}`;
}

/** Error codes that mean the worker could not be reached at all. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** What OpenSSL reports when an `https:` URL reaches a server that answers in plain HTTP. */
const PLAIN_HTTP_CODES = new Set(["ERR_SSL_WRONG_VERSION_NUMBER", "ERR_SSL_PACKET_LENGTH_TOO_LONG", "EPROTO"]);

function requestFailed(action: string, url: string, error: unknown): CliError {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  if (cause instanceof CliError) return cause;
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined;
  if (code !== undefined && PLAIN_HTTP_CODES.has(code) && url.startsWith("https:")) {
    return new CliError(
      `Cannot ${action}: the worker at ${url} speaks plain HTTP, not HTTPS ` +
        `(try --url ${url.replace(/^https:/, "http:")})`,
      { code: "not-tls", details: { url }, cause: error },
    );
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  const unreachable = code !== undefined && UNREACHABLE_CODES.has(code);
  const what = unreachable ? "is unreachable" : "failed to answer";
  const detail = code !== undefined && !reason.includes(code) ? `${code}: ${reason}` : reason;
  return new CliError(`Cannot ${action}: the worker at ${url} ${what} (${detail})`, {
    code: unreachable ? "unreachable" : "no-answer",
    details: { url },
    cause: error,
  });
}
