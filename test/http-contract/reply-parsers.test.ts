import { describe, expect, test } from "vitest";
import { RecordFormatError } from "../../src/files/record-format.ts";
import { ErrorCode, isErrorCode } from "../../src/http-contract/error-code.ts";
import { ReplyFormatError } from "../../src/http-contract/reply-format-error.ts";
import {
  parseErrorBody,
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
} from "../../src/http-contract/reply-parsers.ts";

/** The error `parse(text)` throws (it must throw). */
function refusal(parse: (text: string) => unknown, text: string): ReplyFormatError {
  try {
    parse(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ReplyFormatError);
    return error as ReplyFormatError;
  }
  throw new Error(`${text} was accepted`);
}

const session = {
  sessionId: "s1",
  name: "p",
  state: "open",
  maxPartBytes: 1024,
  segmentMaxBytes: 2048,
  createdAt: "2026-01-01T00:00:00.000Z",
  expiresAt: "2026-01-02T00:00:00.000Z",
};
const receipt = {
  index: 0,
  bytes: 2,
  lines: 1,
  numbers: 1,
  first: 1,
  last: 1,
  canonical: true,
  sorted: true,
  endsWithLineBreak: true,
  digest: "abc",
  parts: 1,
};

describe("the reply parsers name the field that is wrong", () => {
  test.each([
    ["a body that is not JSON", parseFileList, "<html>", ""],
    ["a body that is not an object", parseSweepResult, "[]", ""],
    ["a missing field", parseSweepResult, '{"names":1,"removed":2}', "cursor"],
    ["a field of the wrong type", parseSearchResult, '{"index":"1","value":null,"found":false}', "index"],
    ["a value outside its set", parseWorkerLimits, '{"plan":"gold"}', "plan"],
    [
      "a field of an entry of a list",
      parseFileList,
      '{"files":[{"name":"a","createdAt":"t","totals":{"parts":1,"bytes":"2","numbers":1}}],"cursor":null}',
      "files[0].totals.bytes",
    ],
    ["a number of a list", parseErrorBody, '{"error":"missing-segments","detail":"d","missing":[1,"2"]}', "missing[1]"],
    [
      "an upload in flight",
      parseUploadsListing,
      '{"name":"p","current":null,"uploads":[{"attemptId":"u","state":"done"}],"sessions":[],"reads":0}',
      "uploads[0].state",
    ],
    ["a session's state", parseSessionDescription, JSON.stringify({ ...session, state: "gone" }), "state"],
    [
      "a segment of a session",
      parseSessionWithSegments,
      JSON.stringify({ ...session, segments: [{ ...receipt, sorted: "yes" }] }),
      "segments[0].sorted",
    ],
    ["a segment receipt's parts", parseSegmentReceipt, JSON.stringify({ ...receipt, parts: [] }), "parts"],
    ["remnants of a file that existed", parseRemnantsRemoved, '{"name":"p","removed":true,"remnants":1}', "removed"],
    ["an unknown error code", parseErrorBody, '{"error":"Bad Gateway","detail":"d"}', "error"],
    ["an error without its detail", parseErrorBody, '{"error":"not-found"}', "detail"],
  ] as const)("%s", (_, parse, text, field) => {
    const error = refusal(parse, text);
    expect(error.field).toBe(field);
    expect(error.message).toContain(field === "" ? "the body" : `"${field}"`);
  });

  test("a body that is not JSON keeps the syntax error as its cause", () => {
    expect(refusal(parseFileList, "{").cause).toBeInstanceOf(SyntaxError);
  });

  test("a manifest is checked by the files layer, whose error is the cause", () => {
    const error = refusal(parseManifestReply, '{"version":1}');
    expect(error.cause).toBeInstanceOf(RecordFormatError);
    expect(error.message).toContain('(Cannot read manifest: expected "totals" to be an object)');
  });

  test("a line position header that is missing or not a whole number", () => {
    const headers = new Headers({ "Drainpipe-Line-From": "0", "Drainpipe-Line-Count": "1.5" });
    const error = refusal(() => parseLinePosition(headers), "");
    expect(error.field).toBe("Drainpipe-Line-Count");
  });
});

describe("the reply parsers accept the promised shapes", () => {
  test("an error body keeps its facts and drops what the contract does not name", () => {
    const text = JSON.stringify({ error: "precondition-failed", detail: "d", etag: null, unknown: 1, line: 2 });
    expect(parseErrorBody(text)).toEqual({ error: "precondition-failed", detail: "d", etag: null, line: 2 });
  });

  test("a session with its segments", () => {
    const text = JSON.stringify({ ...session, segments: [receipt, { ...receipt, index: 1, first: null, last: null }] });
    expect(parseSessionWithSegments(text).segments.map((segment) => segment.first)).toEqual([1, null]);
  });
});

test("isErrorCode knows exactly the codes of ErrorCode", () => {
  for (const code of Object.values(ErrorCode)) expect(isErrorCode(code)).toBe(true);
  expect(isErrorCode("overBudget")).toBe(false);
  expect(isErrorCode(404)).toBe(false);
});
