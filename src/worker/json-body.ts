import { fromNativeStream } from "../streams/adapters/from-native.ts";
import type { ReadPace } from "../streams/adapters/read-pace.ts";
import { HttpError } from "./http-error.ts";

/** What {@linkcode readJsonBody} reads and how. */
export interface JsonBodyOptions {
  /** Largest accepted body in bytes. */
  maxBytes: number;
  /** What the body should be, for the errors (e.g. `the completion: expected …`). */
  what: string;
  /** The slowest accepted body: a slower one fails with a `ReadTimeoutError` (`408`). */
  pace: ReadPace;
  /**
   * Bytes of a refused body read and discarded before the answer goes out (at most what its `Content-Length`
   * declares), as the upload routes do: an HTTP client still sending would lose an earlier answer.
   */
  drainBytes: number;
}

/**
 * Reads `request`'s body as JSON of at most `maxBytes` bytes, holding no more than that: a body declared or
 * found larger is refused with `413 body-too-large` (after discarding up to `drainBytes` of it), one that is not
 * JSON with `400 invalid-body`, one slower than `pace` fails with a `ReadTimeoutError` (`408`).
 *
 * @example
 * ```ts
 * const request = new Request("https://example.com", { method: "POST", body: '{ "segments": 3 }' });
 * const pace = { idleMs: 30_000, bytesPerSecond: 16_384 };
 * const body = await readJsonBody(request, { maxBytes: 1024, what: "the completion", pace, drainBytes: 1 << 20 });
 * if ((body as { segments: number }).segments !== 3) throw new Error("not read");
 * ```
 */
export async function readJsonBody(request: Request, options: JsonBodyOptions): Promise<unknown> {
  const { maxBytes, what, pace } = options;
  const tooLarge = (size: string) =>
    new HttpError(413, "body-too-large", `Cannot read ${what}: its body has ${size} bytes, at most ${maxBytes}`);
  const header = request.headers.get("Content-Length");
  const declared = header !== null && /^\s*[0-9]+\s*$/.test(header) ? Number(header) : undefined;
  let bytes: Uint8Array = new Uint8Array(0);
  if (request.body) {
    const drainOnCancel = Math.min(declared ?? options.drainBytes, options.drainBytes);
    // One read of maxBytes + 1 holds the whole body, or shows it is too large.
    const reader = fromNativeStream(request.body, { readSize: maxBytes + 1, pace, drainOnCancel }).getReader();
    if (declared !== undefined && declared > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(String(declared));
    }
    const first = await reader.read();
    if (!first.done) bytes = first.value;
    if (bytes.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge("more than that");
    }
    reader.releaseLock();
  } else if (declared !== undefined && declared > maxBytes) {
    throw tooLarge(String(declared));
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    throw new HttpError(400, "invalid-body", `Cannot read ${what}`, { cause: error });
  }
}
