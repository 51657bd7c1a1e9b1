import { fromNativeStream } from "../streams/adapters/from-native.ts";
import type { ReadPace } from "../streams/adapters/read-pace.ts";
import { HttpError } from "./http-error.ts";

/**
 * Reads `request`'s body as JSON of at most `maxBytes` bytes, reading no further than that: a body declared or
 * found larger is refused with `413 body-too-large` before it is held in memory, one that is not JSON with
 * `400 invalid-body`, one slower than `pace` fails with a `ReadTimeoutError` (`408`). `what` names what the body
 * should be, for the error (e.g. `the completion: expected …`).
 *
 * @example
 * ```ts
 * const request = new Request("https://example.com", { method: "POST", body: '{ "segments": 3 }' });
 * const body = await readJsonBody(request, 1024, "the completion", { idleMs: 30_000, bytesPerSecond: 16_384 });
 * if ((body as { segments: number }).segments !== 3) throw new Error("not read");
 * ```
 */
export async function readJsonBody(request: Request, maxBytes: number, what: string, pace: ReadPace): Promise<unknown> {
  const tooLarge = (size: string) =>
    new HttpError(413, "body-too-large", `Cannot read ${what}: its body has ${size} bytes, at most ${maxBytes}`);
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(String(declared));
  let bytes: Uint8Array = new Uint8Array(0);
  if (request.body) {
    // One read of maxBytes + 1 holds the whole body, or shows it is too large.
    const reader = fromNativeStream(request.body, { readSize: maxBytes + 1, pace }).getReader();
    const first = await reader.read();
    if (!first.done) bytes = first.value;
    if (bytes.byteLength > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge("more than that");
    }
    reader.releaseLock();
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
  } catch (error) {
    throw new HttpError(400, "invalid-body", `Cannot read ${what}`, { cause: error });
  }
}
