import { HttpError } from "./http-error.ts";

/**
 * Reads `request`'s body as JSON of at most `maxBytes` bytes, reading no further than that: a body declared or
 * found larger is refused with `413 body-too-large` before it is held in memory, one that is not JSON with
 * `400 invalid-body`. `what` names what the body should be, for the error (e.g. `the completion: expected …`).
 *
 * @example
 * ```ts
 * const request = new Request("https://example.com", { method: "POST", body: '{ "segments": 3 }' });
 * const body = await readJsonBody(request, 1024, "the completion");
 * if ((body as { segments: number }).segments !== 3) throw new Error("not read");
 * ```
 */
export async function readJsonBody(request: Request, maxBytes: number, what: string): Promise<unknown> {
  const tooLarge = (size: string) =>
    new HttpError(413, "body-too-large", `Cannot read ${what}: its body has ${size} bytes, at most ${maxBytes}`);
  const declared = Number(request.headers.get("Content-Length") ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge(String(declared));
  const bytes = new Uint8Array(maxBytes);
  let length = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (length + read.value.byteLength > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge("more than that");
      }
      bytes.set(read.value, length);
      length += read.value.byteLength;
    }
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes.subarray(0, length)));
  } catch (error) {
    throw new HttpError(400, "invalid-body", `Cannot read ${what}`, { cause: error });
  }
}
