/**
 * The HTTP contract held against the worker itself: each route's real reply parses with the parser the CLI and
 * the page read it with (`src/http-contract/reply-parsers.ts`), and each error code that a request can provoke
 * comes back as a body that `parseErrorBody` accepts, with that code.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, test } from "vitest";
import { ErrorCode } from "../../src/http-contract/error-code.ts";
import { ATTEMPT_HEADER } from "../../src/http-contract/headers.ts";
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
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import { callWorker } from "../support/call-worker.ts";

const auth = { Authorization: "Bearer test-token" };

/** Sends a request to the worker, authenticated unless `headers` says otherwise, under `vars` over the tests' env. */
function call(
  method: string,
  path: string,
  init: { body?: BodyInit; headers?: Record<string, string>; vars?: Record<string, string | undefined> } = {},
): Promise<Response> {
  const request = new Request(`http://drainpipe.test${path}`, {
    method,
    headers: { ...auth, ...init.headers },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return callWorker(request, init.vars === undefined ? env : ({ ...env, ...init.vars } as DrainpipeEnv));
}

/** The text of `response`, after checking its status. */
async function text(response: Response, status: number): Promise<string> {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  return body;
}

/** Opens a session of `name` and sends `segments` to it; resolves with the session's id. */
async function session(name: string, segments: string[]): Promise<string> {
  const { sessionId } = parseSessionDescription(await text(await call("POST", `/files/${name}/uploads`), 201));
  for (const [index, body] of segments.entries()) {
    const receipt = parseSegmentReceipt(
      await text(await call("PUT", `/files/${name}/uploads/${sessionId}/segments/${index}`, { body }), 201),
    );
    expect(receipt.index).toBe(index);
  }
  return sessionId;
}

/** Creates a tus upload of `length` bytes named `name`; resolves with its path. */
async function tusUpload(name: string, length: number): Promise<string> {
  const response = await call("POST", "/tus", {
    headers: { "Tus-Resumable": "1.0.0", "Upload-Length": String(length), "Upload-Metadata": `name ${btoa(name)}` },
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return new URL(response.headers.get("Location")!, "http://drainpipe.test").pathname;
}

beforeAll(async () => {
  await text(await call("POST", "/files/contract-sorted", { body: "1\n2\n3\n" }), 201);
  await text(await call("POST", "/files/contract-unsorted", { body: "3\n1\n" }), 201);
});

describe("each route's reply parses with the clients' parser", () => {
  test("GET /limits", async () => {
    const limits = parseWorkerLimits(await text(await call("GET", "/limits"), 200));
    expect(limits.maxSegments).toBe(10_000);
  });

  test("POST /files/:name and GET /files/:name answer a manifest", async () => {
    const stored = parseManifestReply(await text(await call("POST", "/files/contract-new", { body: "5\n6\n" }), 201));
    const read = parseManifestReply(await text(await call("GET", "/files/contract-new"), 200));
    expect(read).toEqual(stored);
    expect(read.totals.numbers).toBe(2);
  });

  test("POST /files/:name/primes answers a manifest", async () => {
    const primes = parseManifestReply(await text(await call("POST", "/files/contract-primes/primes?count=5"), 201));
    expect(primes.source).toEqual({ kind: "primes", count: 5 });
  });

  test("DELETE /files/:name of a name holding only leftovers answers what went", async () => {
    await env.BUCKET.put("contract-leftovers/uploads/dead/part-00000000", "1\n");
    const removed = parseRemnantsRemoved(await text(await call("DELETE", "/files/contract-leftovers"), 200));
    expect(removed).toEqual({ name: "contract-leftovers", removed: false, remnants: 1 });
  });

  test("GET /files", async () => {
    const page = parseFileList(await text(await call("GET", "/files?limit=1"), 200));
    expect(page.files).toHaveLength(1);
    expect(page.cursor).not.toBeNull();
  });

  test("GET /files/:name/uploads, with a session open", async () => {
    const id = await session("contract-listed", ["1\n"]);
    const listing = parseUploadsListing(await text(await call("GET", "/files/contract-listed/uploads"), 200));
    expect(listing.sessions.map((open) => [open.sessionId, open.segments])).toEqual([[id, 1]]);
  });

  test("the session routes: open, send a segment, read, complete", async () => {
    const id = await session("contract-session", ["7\n", "8\n"]);
    const read = parseSessionWithSegments(await text(await call("GET", `/files/contract-session/uploads/${id}`), 200));
    expect(read.segments.map((segment) => segment.numbers)).toEqual([1, 1]);
    const complete = await call("POST", `/files/contract-session/uploads/${id}/complete`, {
      body: JSON.stringify({ segments: 2 }),
    });
    expect(parseManifestReply(await text(complete, 201)).totals.numbers).toBe(2);
  });

  test("GET /files/:name/lines answers its position in headers", async () => {
    const response = await call("GET", "/files/contract-sorted/lines?from=1&count=5");
    expect(await text(response, 200)).toBe("2\n3\n");
    expect(parseLinePosition(response.headers)).toEqual({ from: 1, count: 2, total: 3 });
  });

  test("GET /files/:name/search", async () => {
    const found = parseSearchResult(await text(await call("GET", "/files/contract-sorted/search?value=2"), 200));
    expect(found).toEqual({ index: 1, value: 2, found: true });
  });

  test("POST /sweep", async () => {
    const step = parseSweepResult(await text(await call("POST", "/sweep"), 200));
    expect(step.cursor).toBeNull();
  });
});

/** What provokes each error code: a request, or a few, whose last reply is the refusal. */
const PROVOKED: Partial<Record<ErrorCode, () => Promise<Response>>> = {
  unauthorized: () => call("GET", "/files", { headers: { Authorization: "Bearer wrong" } }),
  "auth-not-configured": () => call("GET", "/files", { vars: { API_TOKEN: undefined } }),
  misconfigured: () => call("GET", "/files", { vars: { PLAN: "gold" } }),
  "not-found": () => call("GET", "/files/contract-absent"),
  "method-not-allowed": () => call("PUT", "/files/contract-sorted"),
  "invalid-path": () => call("GET", "/files/%E0%A4%A"),
  "invalid-name": () => call("POST", "/files/_hidden", { body: "1\n" }),
  "invalid-max-part-bytes": () => call("POST", "/files/contract-x?maxPartBytes=1", { body: "1\n" }),
  "invalid-count": () => call("POST", "/files/contract-x/primes?count=0"),
  "invalid-limit": () => call("GET", "/files?limit=0"),
  "missing-from": () => call("GET", "/files/contract-sorted/lines"),
  "invalid-from": () => call("GET", "/files/contract-sorted/lines?from=x"),
  "missing-value": () => call("GET", "/files/contract-sorted/search"),
  "invalid-value": () => call("GET", "/files/contract-sorted/search?value=x"),
  "invalid-segment-index": async () => {
    const id = await session("contract-index", []);
    return call("PUT", `/files/contract-index/uploads/${id}/segments/x`, { body: "1\n" });
  },
  "invalid-header": () =>
    call("POST", "/tus", { headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "x", "Upload-Metadata": "" } }),
  "invalid-digest": () => call("POST", "/files/contract-x", { body: "1\n", headers: { "Content-Digest": "x" } }),
  "header-too-large": () =>
    call("POST", "/files/contract-x", { body: "1\n", headers: { [ATTEMPT_HEADER]: "a".repeat(129) } }),
  "invalid-number": () => call("POST", "/files/contract-x", { body: "1\nx\n" }),
  "invalid-body": async () => {
    const id = await session("contract-body", []);
    return call("POST", `/files/contract-body/uploads/${id}/complete`, { body: "segments" });
  },
  "digest-mismatch": () =>
    call("POST", "/files/contract-x", {
      body: "1\n",
      headers: { "Content-Digest": `sha-256=:${btoa(String.fromCharCode(...new Uint8Array(32)))}:` },
    }),
  "body-too-large": () => call("POST", "/files/contract-x", { body: "1\n2\n", vars: { MAX_UPLOAD_BYTES: "2" } }),
  "too-many-numbers": () => call("POST", "/files/contract-x", { body: "1\n2\n", vars: { MAX_UPLOAD_NUMBERS: "1" } }),
  "over-budget": () => call("GET", "/files?limit=50", { vars: { SUBREQUEST_LIMIT: "5" } }),
  "precondition-failed": () => call("GET", "/files/contract-sorted/content", { headers: { "If-Match": '"other"' } }),
  "range-not-satisfiable": () => call("GET", "/files/contract-sorted/content", { headers: { Range: "bytes=100-" } }),
  "lines-not-satisfiable": () => call("GET", "/files/contract-sorted/lines?from=3"),
  "not-sorted": () => call("GET", "/files/contract-unsorted/search?value=1"),
  "no-such-upload": () => call("GET", "/files/contract-sorted/uploads/absent"),
  "missing-segments": async () => {
    const id = await session("contract-missing", ["1\n"]);
    return call("POST", `/files/contract-missing/uploads/${id}/complete`, { body: JSON.stringify({ segments: 2 }) });
  },
  "cut-lines": async () => {
    const id = await session("contract-cut", ["1", "2\n"]);
    return call("POST", `/files/contract-cut/uploads/${id}/complete`, { body: JSON.stringify({ segments: 2 }) });
  },
  "unsupported-tus-version": () =>
    call("POST", "/tus", { headers: { "Tus-Resumable": "0.2.0", "Upload-Length": "1" } }),
  "missing-length": () => call("POST", "/tus", { headers: { "Tus-Resumable": "1.0.0", "Upload-Metadata": "" } }),
  "invalid-metadata": () =>
    call("POST", "/tus", { headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "2", "Upload-Metadata": "name !" } }),
  "missing-name": () =>
    call("POST", "/tus", { headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "2", "Upload-Metadata": "" } }),
  "missing-offset": async () =>
    call("PATCH", await tusUpload("contract-tus", 2), {
      body: "1\n",
      headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream" },
    }),
  "offset-mismatch": async () =>
    call("PATCH", await tusUpload("contract-tus", 2), {
      body: "1\n",
      headers: { "Tus-Resumable": "1.0.0", "Content-Type": "application/offset+octet-stream", "Upload-Offset": "1" },
    }),
  "unsupported-media-type": async () =>
    call("PATCH", await tusUpload("contract-tus", 2), {
      body: "1\n",
      headers: { "Tus-Resumable": "1.0.0", "Content-Type": "text/plain", "Upload-Offset": "0" },
    }),
  "unsupported-checksum": async () =>
    call("PATCH", await tusUpload("contract-tus", 2), {
      body: "1\n",
      headers: {
        "Tus-Resumable": "1.0.0",
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": "0",
        "Upload-Checksum": "md5 AAAA",
      },
    }),
  "invalid-concat": () =>
    call("POST", "/tus", { headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "2", "Upload-Concat": "half" } }),
};

/**
 * The codes not provoked above, each with why: they need a fault of storage or of the platform, a slow or
 * malformed body that `fetch` does not send, or more state than a contract test should build. Their bodies are
 * rendered by the same `errorResponse` as the codes above.
 */
const NOT_PROVOKED: Partial<Record<ErrorCode, string>> = {
  "invalid-form": "a multipart body cut mid-part (test/worker/form-upload)",
  "missing-file": "a form without a file field (test/worker/form-upload)",
  "form-fields-too-large": "64 KiB of form fields (test/worker/form-upload)",
  "too-many-files": "a form of two files (test/worker/form-upload)",
  "length-mismatch": "a body shorter than its Content-Length, which Request will not build (test/http)",
  "body-too-slow": "a body that stalls (test/http)",
  "file-too-large": "a session past MAX_UPLOAD_BYTES (test/worker/session-routes)",
  "too-many-parts": "a body that would make more than 10,000 parts (test/worker/platform-limits)",
  "subrequest-limit": "a platform that grants fewer subrequests than the settings say (test/cli)",
  "storage-failed": "an R2 that fails (test/worker/storage-faults)",
  "lease-lost": "an upload whose lease ends while it writes (test/worker/coordination)",
  internal: "a bug",
  "no-line-index": "a file stored before line indexes existed (test/worker/lines)",
  "too-many-sessions": "17 open sessions of one name (test/worker/session-routes)",
  "upload-length-exceeded": "a tus PATCH past Upload-Length (test/tus)",
  "upload-complete": "a tus PATCH of a complete upload (test/tus)",
  "checksum-mismatch": "a tus PATCH whose Upload-Checksum is wrong (test/tus)",
  "patch-too-large": "a tus PATCH past MAX_SEGMENT_BYTES (test/tus)",
  "patch-superseded": "two tus PATCHes racing (test/worker/tus-routes)",
  "too-many-patches": "tus PATCHes past the part limit (test/worker/tus-routes)",
  "not-partial": "a final tus upload naming a non-partial one (test/worker/tus-routes)",
  "partial-gone": "a final tus upload of a partial whose parts went (test/worker/tus-routes)",
  "partial-unfinished": "a final tus upload of an unfinished partial (test/worker/tus-routes)",
  "too-many-partials": "a final tus upload of too many partials (test/worker/tus-routes)",
};

describe("each error code the tests provoke comes back as an error body the clients parse", () => {
  test.each(Object.entries(PROVOKED))("%s", async (code, provoke) => {
    const response = await provoke!();
    const body = parseErrorBody(await response.text());
    expect(body.error).toBe(code);
    expect(response.ok).toBe(false);
  });

  test("every code of ErrorCode is provoked above or says where it is tested instead", () => {
    const covered = [...Object.keys(PROVOKED), ...Object.keys(NOT_PROVOKED)].sort();
    expect(covered).toEqual([...Object.values(ErrorCode)].sort());
  });
});
