import { env, exports } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import type { Manifest } from "../../src/files/manifest.ts";
import { utf8 } from "../support/bytes.ts";
import { callWorker } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";

const headers = { Authorization: "Bearer test-token" };

function post(body: BodyInit, query = ""): Promise<Response> {
  return exports.default.fetch(
    new Request(`http://drainpipe.test/files/input${query}`, { method: "POST", body, headers }),
  );
}

async function bucketIsEmpty(): Promise<boolean> {
  return (await env.BUCKET.list()).objects.length === 0;
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("bad input is a 400 naming line and column, and writes nothing", () => {
  const cases: [string, string | Uint8Array, number, number, string][] = [
    ["a letter", "12\n3a\n", 2, 2, "unexpected-byte"],
    ["a space", "12\n 3\n", 2, 1, "unexpected-byte"],
    ["a trailing space", "12 \n", 1, 3, "unexpected-byte"],
    ["a plus sign", "+5\n", 1, 1, "unexpected-byte"],
    ["a decimal point", "1.5\n", 1, 2, "unexpected-byte"],
    ["a NUL byte", "1\n2\u00003\n", 2, 2, "unexpected-byte"],
    ["multibyte UTF-8", "1\n2\n٣\n", 3, 1, "unexpected-byte"],
    ["a lone minus", "1\n-\n2\n", 2, 1, "lone-minus"],
    ["a lone minus at the end", "1\n-", 2, 1, "lone-minus"],
    ["2^53", "9007199254740992\n", 1, 16, "unsafe-integer"],
    ["-(2^53)", "-9007199254740992\n", 1, 17, "unsafe-integer"],
    ["a stray carriage return", "1\r2\n", 1, 2, "stray-carriage-return"],
  ];
  test.each(cases)("%s", async (_what, body, line, column, reason) => {
    const response = await post(typeof body === "string" ? utf8(body) : body, "?maxPartBytes=1024");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid-number", line, column, reason });
    expect(await bucketIsEmpty()).toBe(true);
  });

  test("a 10 MB line of digits fails at the digit that overflows", async () => {
    const body = new Uint8Array(10 * 1024 * 1024).fill(0x39);
    body[body.length - 1] = 10;
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: "invalid-number",
      line: 1,
      column: 16,
      reason: "unsafe-integer",
    });
    expect(await bucketIsEmpty()).toBe(true);
  });
});

describe("unusual but valid input is stored correctly", () => {
  const cases: [string, string, string, boolean][] = [
    ["an empty body", "", "", true],
    ["only newlines", "\n\n\n", "", false],
    ["CRLF line endings", "1\r\n2\r\n", "1\n2\n", false],
    ["no trailing newline", "1\n2", "1\n2\n", false],
    ["leading zeros", "007\n-0012\n0\n", "7\n-12\n0\n", false],
    ["±(2^53−1)", "9007199254740991\n-9007199254740991\n", "9007199254740991\n-9007199254740991\n", true],
    ["canonical input", "2\n3\n5\n", "2\n3\n5\n", true],
  ];
  test.each(cases)("%s", async (_what, body, stored, canonical) => {
    const response = await post(utf8(body));
    expect(response.status).toBe(201);
    const manifest = (await response.json()) as Manifest;
    expect(manifest.source).toMatchObject({ kind: "upload", bytes: utf8(body).length, canonical });
    const content = await exports.default.fetch(new Request("http://drainpipe.test/files/input/content", { headers }));
    expect(await content.text()).toBe(stored);
  });
});

describe("declared lengths", () => {
  test("a body shorter than its Content-Length is refused and leaves nothing", async () => {
    const chunk = utf8("1234567\n".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 10) return controller.close();
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const declared = String(chunk.length * 20);
    const response = await exports.default.fetch(
      new Request("http://drainpipe.test/files/input?maxPartBytes=65536", {
        method: "POST",
        body,
        headers: { ...headers, "Content-Length": declared },
        duplex: "half",
      } as RequestInit),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("length-mismatch");
    expect(await bucketIsEmpty()).toBe(true);
  });

  test("a body that fails before its Content-Length is a 400 length-mismatch, not a 500", async () => {
    const chunk = utf8("1234567\n".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 3) return controller.error(new TypeError("Network connection lost."));
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://drainpipe.test/files/input?maxPartBytes=65536", {
      method: "POST",
      body,
      headers: { ...headers, "Content-Length": String(chunk.length * 20) },
    });
    const response = await callWorker(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("length-mismatch");
    expect(await bucketIsEmpty()).toBe(true);
  });

  test("a bad line in a body with a Content-Length is still a 400 invalid-number", async () => {
    const body = utf8("1\nx\n");
    const request = new Request("http://drainpipe.test/files/input", {
      method: "POST",
      body,
      headers: { ...headers, "Content-Length": String(body.length) },
    });
    const response = await callWorker(request);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe("invalid-number");
  });
});

describe("stalled bodies", () => {
  /** The test env with a body deadline of 1 s idle, at a rate that adds 1 ms per MiB read. */
  const impatient = { ...env, BODY_IDLE_SECONDS: "1", BODY_MIN_RATE: String(1024 * 1024 * 1000) };

  /** A body that sends `first`, then nothing, and records whether it was cancelled. */
  function stalledBody(first: Uint8Array) {
    const seen = { cancelled: false };
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return new Promise<void>(() => {});
        sent = true;
        controller.enqueue(first);
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    return { body, seen };
  }

  /** POSTs a body that sends `first`, then nothing, to `path` with the impatient settings. */
  async function postStalled(path: string, first: string, extraHeaders: Record<string, string> = {}) {
    const { body, seen } = stalledBody(utf8(first));
    const request = new Request(`http://drainpipe.test${path}`, {
      method: "POST",
      body,
      headers: { ...headers, ...extraHeaders },
      duplex: "half",
    } as RequestInit);
    return { response: await callWorker(request, impatient), seen };
  }

  test("an upload whose body stops sending is refused with 408 body-too-slow and leaves nothing", async () => {
    const { response, seen } = await postStalled("/files/stalled?maxPartBytes=1024", "1\n2\n3\n".repeat(1000));
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ error: "body-too-slow", bytes: 1024 * 1024 });
    expect(seen.cancelled).toBe(true);
    expect(await bucketIsEmpty()).toBe(true);
    const listed = await callWorker(new Request("http://drainpipe.test/files/stalled", { headers }), impatient);
    expect(listed.status).toBe(404);
  });

  test("a stalled body with a Content-Length is a 408, not a 400 length-mismatch", async () => {
    const { response } = await postStalled("/files/stalled", "1\n", { "Content-Length": "1000" });
    expect(response.status).toBe(408);
    expect(((await response.json()) as { error: string }).error).toBe("body-too-slow");
  });

  test("a session completion whose body stops sending is refused with 408", async () => {
    const opened = await callWorker(
      new Request("http://drainpipe.test/files/stalled/uploads", { method: "POST", headers }),
      impatient,
    );
    expect(opened.status).toBe(201);
    const { sessionId } = (await opened.json()) as { sessionId: string };
    const { response } = await postStalled(`/files/stalled/uploads/${sessionId}/complete`, '{ "segm');
    expect(response.status).toBe(408);
    expect(((await response.json()) as { error: string }).error).toBe("body-too-slow");
  });
});
