import { TransformStream } from "../streams/engine/transform-stream.ts";
import { HttpError } from "./http-error.ts";

/**
 * Passes a request body through while counting its bytes: errors with `413 body-too-large` as soon as the
 * count passes `maxBytes`, and, when the request declared a `Content-Length`, with `400 length-mismatch`
 * if the body turns out longer or shorter than declared. Enforced while streaming, so an oversized body is
 * refused without being read whole.
 *
 * @example
 * ```ts
 * import type { ReadableStream } from "../streams/engine/readable-stream.ts";
 * declare const request: Request;
 * declare const body: ReadableStream<Uint8Array>;
 * const maxBytes = 1 << 30;
 * const checked = body.pipeThrough(limitBytes(maxBytes, declaredLength(request, maxBytes)));
 * ```
 */
export function limitBytes(maxBytes: number, declared: number | undefined): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        throw new HttpError(413, "body-too-large", `Cannot accept more than ${maxBytes} bytes in one upload`);
      }
      if (declared !== undefined && seen > declared) {
        throw new HttpError(
          400,
          "length-mismatch",
          `Cannot accept the body: it is longer than its Content-Length of ${declared}`,
        );
      }
      controller.enqueue(chunk);
    },
    flush() {
      if (declared !== undefined && seen !== declared) {
        throw new HttpError(
          400,
          "length-mismatch",
          `Cannot accept the body: it has ${seen} bytes, its Content-Length says ${declared}`,
        );
      }
    },
  });
}

/**
 * The request's declared body length, checked against `maxBytes` up front (`413` before reading anything),
 * or `undefined` for a body sent without `Content-Length` (chunked), which is then limited while streaming.
 */
export function declaredLength(request: Request, maxBytes: number): number | undefined {
  const header = request.headers.get("Content-Length");
  if (header === null) return undefined;
  const length = /^[0-9]+$/.test(header.trim()) ? Number(header.trim()) : Number.NaN;
  if (!Number.isSafeInteger(length)) {
    throw new HttpError(
      400,
      "length-mismatch",
      `Cannot accept the body: Content-Length "${header}" is not a byte count`,
    );
  }
  if (length > maxBytes) {
    throw new HttpError(413, "body-too-large", `Cannot accept ${length} bytes: at most ${maxBytes} bytes per upload`);
  }
  return length;
}
