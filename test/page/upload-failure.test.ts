import { describe, expect, test } from "vitest";
import { describeUploadFailure } from "../../src/page/upload-failure.ts";

/** An error shaped as tus-js-client's `DetailedError` for an answer of `status` with `body`. */
function tusError(status: number, body: string): Error {
  return Object.assign(new Error(`tus: unexpected response while uploading chunk (response code: ${status})`), {
    originalResponse: { getStatus: () => status, getBody: () => body },
  });
}

describe("describeUploadFailure", () => {
  test("a bad line gives the worker's detail, line, column and offset", () => {
    const body = {
      error: "invalid-number",
      detail: "line 3, column 2 (byte offset 5): unexpected byte 0x78 ('x')",
      line: 3,
      column: 2,
      offset: 5,
    };
    expect(describeUploadFailure("bad.txt", tusError(400, JSON.stringify(body)))).toEqual({
      title: '"bad.txt" has a bad line',
      detail: body.detail,
      status: 400,
      body,
    });
  });

  test("a refusal recorded as it arrived wins over the response read after Uppy aborted its request", () => {
    const aborted = tusError(0, "");
    const body = { error: "invalid-number", detail: "line 9, column 1: …", line: 9, column: 1, offset: 40 };
    const refusal = { status: 400, body: JSON.stringify(body) };
    expect(describeUploadFailure("f", aborted, () => refusal)).toMatchObject({ status: 400, body });
    expect(describeUploadFailure("f", aborted)).toMatchObject({ title: 'Cannot upload "f"' });
  });

  test("the error may come wrapped in Uppy's NetworkError (as its cause)", () => {
    const wrapped = Object.assign(new Error("network"), {
      cause: tusError(413, '{"error":"file-too-large","detail":"…"}'),
    });
    expect(describeUploadFailure("f", wrapped)).toMatchObject({ title: 'The worker refused "f" (413 file-too-large)' });
  });

  test("an answer without the worker's JSON, and no answer at all", () => {
    expect(describeUploadFailure("f", tusError(502, "<html>Bad gateway</html>"))).toMatchObject({
      title: 'The worker refused "f" (502)',
      status: 502,
    });
    expect(describeUploadFailure("f", new Error("tus: failed to upload chunk"))).toEqual({
      title: 'Cannot upload "f"',
      detail: "tus: failed to upload chunk",
    });
  });
});
