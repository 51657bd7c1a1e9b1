import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FormFileStream, formBoundary, MAX_FORM_FIELD_BYTES } from "../../src/worker/form-file-stream.ts";
import { HttpError } from "../../src/worker/http-error.ts";
import { collect, splitAt, streamOf } from "../numbers/support.ts";

const encoder = new TextEncoder();

/**
 * A multipart/form-data body of `parts` (each with its headers) with `boundary`, after a preamble (ending with a line
 * break, or empty) and before an epilogue.
 */
function form(boundary: string, parts: { headers: string; content: Uint8Array }[], around = ["", ""]): Uint8Array {
  const pieces: Uint8Array[] = [encoder.encode(around[0]!)];
  for (const part of parts) {
    pieces.push(encoder.encode(`--${boundary}\r\n${part.headers}\r\n\r\n`), part.content, encoder.encode("\r\n"));
  }
  pieces.push(encoder.encode(`--${boundary}--\r\n${around[1]}`));
  return Buffer.concat(pieces);
}

/** What the stream passes on for `body` arriving in chunks cut at `cuts`, or the error's code. */
async function fileOf(boundary: string, body: Uint8Array, cuts: number[] = []): Promise<string> {
  try {
    const chunks = await collect(streamOf(splitAt(body, cuts)).pipeThrough(new FormFileStream(boundary)));
    return Buffer.concat(chunks).toString("latin1");
  } catch (error) {
    if (error instanceof HttpError) return `error ${error.status} ${error.code}`;
    throw error;
  }
}

const fileHeaders = 'Content-Disposition: form-data; name="file"; filename="primes.txt"\r\nContent-Type: text/plain';
const fieldHeaders = 'Content-Disposition: form-data; name="note"';

describe("FormFileStream", () => {
  test("passes on the file field's bytes, whatever the other fields and the chunks", async () => {
    const content = fc.uint8Array({ maxLength: 300 }).map((bytes) => {
      // Bytes that look like a delimiter's start, but are not one.
      const text = Buffer.from(bytes)
        .toString("latin1")
        .replace(/[\r\n]/g, "");
      return encoder.encode(`${text}\r\n--b0undary\r\n-\r\n--bound`);
    });
    await fc.assert(
      fc.asyncProperty(
        content,
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom("", "preamble text\r\n"),
        async (file, fields, cuts, preamble) => {
          const boundary = "boundary42";
          const parts = [
            ...fields.map((text) => ({ headers: fieldHeaders, content: encoder.encode(text) })),
            { headers: fileHeaders, content: file },
          ];
          const body = form(boundary, parts, [preamble, "epilogue"]);
          expect(await fileOf(boundary, body, cuts)).toBe(Buffer.from(file).toString("latin1"));
        },
      ),
      { numRuns: 300 },
    );
  });

  test("refuses a form without a file, with two files, cut short, or with large fields", async () => {
    const b = "xyz";
    expect(await fileOf(b, form(b, [{ headers: fieldHeaders, content: encoder.encode("hi") }]))).toBe(
      "error 400 missing-file",
    );
    const emptyInput = 'Content-Disposition: form-data; name="file"; filename=""';
    expect(await fileOf(b, form(b, [{ headers: emptyInput, content: new Uint8Array(0) }]))).toBe(
      "error 400 missing-file",
    );
    const two = form(b, [
      { headers: fileHeaders, content: encoder.encode("1\n") },
      { headers: fileHeaders, content: encoder.encode("2\n") },
    ]);
    expect(await fileOf(b, two)).toBe("error 400 too-many-files");
    const whole = form(b, [{ headers: fileHeaders, content: encoder.encode("1\n2\n") }]);
    expect(await fileOf(b, whole.subarray(0, whole.byteLength - 9))).toBe("error 400 invalid-form");
    expect(await fileOf(b, encoder.encode("1\n2\n"))).toBe("error 400 invalid-form");
    const big = form(b, [
      { headers: fieldHeaders, content: new Uint8Array(MAX_FORM_FIELD_BYTES + 1).fill(0x61) },
      { headers: fileHeaders, content: encoder.encode("1\n") },
    ]);
    expect(await fileOf(b, big)).toBe("error 413 form-fields-too-large");
  });

  test("finds the boundary of a multipart/form-data content type", () => {
    expect(formBoundary('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(formBoundary("Multipart/Form-Data;boundary=----WebKitFormBoundaryX1")).toBe("----WebKitFormBoundaryX1");
    expect(formBoundary("text/plain")).toBeUndefined();
    expect(formBoundary(null)).toBeUndefined();
    expect(() => formBoundary("multipart/form-data")).toThrow("has no boundary");
  });
});
