/**
 * The file of a `multipart/form-data` body (RFC 7578: an HTML form's `<input type="file">`, `curl -F file=@…`),
 * taken out as it streams: the bytes of the one part that carries a file name pass on, never held whole; the
 * form's other fields are read and dropped, within a small limit; the boundaries are found across chunks.
 *
 * @module
 */
import { TransformStream } from "../streams/engine/transform-stream.ts";
import type { TransformStreamDefaultController } from "../streams/engine/transform-stream-default-controller.ts";
import { HttpError } from "./http-error.ts";

const CR = 0x0d;

/** Most bytes of a part's headers. */
const MAX_PART_HEADER_BYTES = 16 * 1024;

/** Most bytes of the form's fields other than the file, together. */
export const MAX_FORM_FIELD_BYTES = 64 * 1024;

/** Where the stream is in the form. */
type FormState = "preamble" | "after-boundary" | "headers" | "file" | "field" | "epilogue";

/**
 * The boundary of a `multipart/form-data` content type, or `undefined` for any other content type.
 *
 * @throws {HttpError} `400 invalid-form` for `multipart/form-data` without a usable boundary.
 * @example
 * ```ts
 * formBoundary("multipart/form-data; boundary=----x1"); // "----x1"
 * formBoundary("application/octet-stream"); // undefined
 * ```
 */
export function formBoundary(contentType: string | null): string | undefined {
  if (contentType === null || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) {
    throw new HttpError(400, "invalid-form", `Cannot read the form: its Content-Type "${contentType}" has no boundary`);
  }
  return boundary;
}

/**
 * Passes on the content of the form's file part. Errors with `400 invalid-form` for a body that is not a form of
 * that boundary, `400 missing-file` when no part carries a file, `400 too-many-files` for a second one, and `413
 * form-fields-too-large` when the other fields pass {@linkcode MAX_FORM_FIELD_BYTES}.
 *
 * @example
 * ```ts
 * const form = new FormFileStream("x");
 * // "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.txt\"\r\n\r\n2\n3\n\r\n--x--\r\n"
 * // passes on "2\n3\n"
 * ```
 */
export class FormFileStream extends TransformStream<Uint8Array, Uint8Array> {
  /** `\r\n--<boundary>`: what ends a part's content. */
  readonly #delimiter: Uint8Array;
  #state: FormState = "preamble";
  /** Bytes not yet judged: the start of what may be a delimiter, or of headers. */
  #pending: Uint8Array = new Uint8Array(0);
  #files = 0;
  #fieldBytes = 0;
  /** The file part's name, once found. */
  #fileName: string | undefined;

  /** Takes the form whose parts `boundary` separates. */
  constructor(boundary: string) {
    super({
      transform: (chunk, controller) => this.#take(chunk, controller),
      flush: () => this.#end(),
    });
    // The body starts with "--<boundary>" (no line break before it): it is looked for as if one were there.
    this.#delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
    this.#pending = new TextEncoder().encode("\r\n");
  }

  /** The file name the form gave its file part (`filename`), once the part began. */
  get fileName(): string | undefined {
    return this.#fileName;
  }

  #take(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
    let bytes = this.#pending.byteLength === 0 ? chunk : concat(this.#pending, chunk);
    this.#pending = new Uint8Array(0);
    // Every step reads what it needs of `bytes` before anything is passed on (whoever receives a chunk may reuse
    // its buffer at once): the file's bytes are passed on last.
    for (;;) {
      switch (this.#state) {
        case "preamble":
        case "file":
        case "field":
        case "epilogue": {
          if (this.#state === "epilogue") return;
          const at = indexOf(bytes, this.#delimiter);
          if (at === -1) {
            // Keep what may be the start of a delimiter; the rest belongs to the part.
            const keep = Math.min(bytes.byteLength, this.#delimiter.byteLength - 1);
            const content = bytes.subarray(0, bytes.byteLength - keep);
            this.#pending = bytes.slice(bytes.byteLength - keep);
            this.#content(content, controller);
            return;
          }
          const rest = bytes.slice(at + this.#delimiter.byteLength);
          this.#content(bytes.subarray(0, at), controller);
          this.#state = "after-boundary";
          bytes = rest;
          break;
        }
        case "after-boundary": {
          if (bytes.byteLength < 2) {
            this.#pending = bytes.slice();
            return;
          }
          if (bytes[0] === 0x2d && bytes[1] === 0x2d) {
            this.#state = "epilogue";
            return;
          }
          // Transport padding (spaces, tabs) may stand before the line break.
          let at = 0;
          while (at < bytes.byteLength && (bytes[at] === 0x20 || bytes[at] === 0x09)) at++;
          if (at + 1 >= bytes.byteLength) {
            this.#pending = bytes.slice();
            return;
          }
          if (bytes[at] !== CR || bytes[at + 1] !== 0x0a) throw malformed("a boundary is not followed by a line break");
          this.#state = "headers";
          bytes = bytes.subarray(at + 2);
          break;
        }
        case "headers": {
          const end = indexOf(bytes, HEADERS_END);
          if (end === -1) {
            if (bytes.byteLength > MAX_PART_HEADER_BYTES) throw malformed("a part's headers are too long");
            this.#pending = bytes.slice();
            return;
          }
          if (end > MAX_PART_HEADER_BYTES) throw malformed("a part's headers are too long");
          this.#state = this.#partKind(new TextDecoder().decode(bytes.subarray(0, end)));
          // The content starts after the blank line (an empty part's delimiter follows at once).
          bytes = bytes.subarray(end + HEADERS_END.byteLength);
          break;
        }
      }
    }
  }

  /** What a part is, from its headers: the file, or another field. */
  #partKind(headers: string): "file" | "field" {
    const disposition = /^content-disposition:\s*form-data\s*(;.*)?$/im.exec(headers);
    if (!disposition) throw malformed("a part has no Content-Disposition: form-data header");
    const parameters = disposition[1] ?? "";
    const quoted = /;\s*filename="((?:[^"\\]|\\.)*)"/i.exec(parameters)?.[1];
    const fileName = quoted ?? /;\s*filename=([^;\s]+)/i.exec(parameters)?.[1];
    // A form whose file input has no file chosen sends an empty file name: not a file.
    if (fileName === undefined || fileName === "") return "field";
    this.#files += 1;
    if (this.#files > 1) {
      throw new HttpError(400, "too-many-files", "Cannot store a form with more than one file: send one per request");
    }
    this.#fileName = fileName;
    return "file";
  }

  /** Content of the part being read: passed on for the file, counted and dropped for another field. */
  #content(content: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
    if (content.byteLength === 0) return;
    if (this.#state === "file") {
      controller.enqueue(content);
      return;
    }
    if (this.#state !== "field") return;
    this.#fieldBytes += content.byteLength;
    if (this.#fieldBytes > MAX_FORM_FIELD_BYTES) {
      throw new HttpError(
        413,
        "form-fields-too-large",
        `Cannot read the form: its fields other than the file pass ${MAX_FORM_FIELD_BYTES} bytes`,
      );
    }
  }

  #end(): void {
    if (this.#state !== "epilogue") throw malformed("it ends before its closing boundary");
    if (this.#files === 0) {
      throw new HttpError(
        400,
        "missing-file",
        "Cannot store the form: none of its fields holds a file " +
          '(send the file as a file field, e.g. curl -F "file=@primes.txt")',
      );
    }
  }
}

const HEADERS_END = new Uint8Array([CR, 0x0a, CR, 0x0a]);

function malformed(reason: string): HttpError {
  return new HttpError(400, "invalid-form", `Cannot read the form (multipart/form-data): ${reason}`);
}

/** The first index of `needle` in `bytes`, or -1. */
function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  const last = bytes.byteLength - needle.byteLength;
  for (let at = bytes.indexOf(first); at !== -1 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.byteLength && bytes[at + i] === needle[i]) i++;
    if (i === needle.byteLength) return at;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(a.byteLength + b.byteLength);
  bytes.set(a);
  bytes.set(b, a.byteLength);
  return bytes;
}
