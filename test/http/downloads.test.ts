import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../src/cli/embedded-worker.ts";
import { isRetryable } from "../../src/cli/retry.ts";
import { WorkerClient } from "../../src/cli/worker-client.ts";
import { WorkerError } from "../../src/cli/worker-error.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { sampleNumbers } from "../support/split-contract.ts";

// Downloads over real HTTP through the local runtime of `npm start` (wrangler's dev server, as the embedded worker
// runs it), which gzips text/plain, HTML and JSON for a client that accepts gzip unless the response names an
// encoding of its own. The worker's answers say `Content-Encoding: identity`, so such a client gets the stored bytes
// with their Content-Length, and 206 bodies that Content-Range counts.

let stateDir: string;
let worker: EmbeddedWorker;
const bytes = encodeNumbers(sampleNumbers(20_000, 5));

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "drainpipe-downloads-"));
  worker = await startEmbeddedWorker({ stateDir });
  const response = await fetch(`${worker.url}/files/nums?maxPartBytes=65536`, {
    method: "POST",
    headers: { Authorization: `Bearer ${worker.token}`, "Content-Type": "text/plain" },
    body: Buffer.from(bytes),
  });
  expect(response.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await worker?.stop();
  await rm(stateDir, { recursive: true, force: true });
});

/** What arrives on the wire for a request (node:http decodes nothing): status, headers, the raw body. */
interface Wire {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Sends a request as a gzip-accepting client does (browsers, Node's fetch, requests, httpie). */
function wire(method: string, path: string, headers: Record<string, string> = {}): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${worker.url}${path}`,
      {
        method,
        headers: { Authorization: `Bearer ${worker.token}`, "Accept-Encoding": "gzip, deflate, br", ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    sent.on("error", reject);
    sent.end();
  });
}

describe("a gzip-accepting client", () => {
  test("the runtime does compress for it: the page's HTML arrives gzipped", async () => {
    const page = await wire("GET", "/");
    expect(page.status).toBe(200);
    expect(page.headers["content-encoding"]).toBe("gzip");
  });

  test("gets the content and its parts as stored, with Content-Length and a strong ETag", async () => {
    for (const path of ["/files/nums/content", "/files/nums/parts/0"]) {
      const got = await wire("GET", path);
      expect(got.status).toBe(200);
      expect(got.headers["content-encoding"]).toBe("identity");
      expect(got.headers["transfer-encoding"]).toBeUndefined();
      expect(got.headers["content-length"]).toBe(String(got.body.length));
      expect(got.headers.etag).toMatch(/^"[^"]+"$/);
      expect(got.headers["cache-control"]).toBe("private, no-cache, no-transform");
      const head = await wire("HEAD", path);
      expect(head.headers["content-length"]).toBe(got.headers["content-length"]);
      expect(head.headers["content-encoding"]).toBe("identity");
    }
    const content = await wire("GET", "/files/nums/content");
    expect(new Uint8Array(content.body)).toEqual(bytes);
    expect(content.headers["content-disposition"]).toBe('attachment; filename="nums"');
  });

  test("gets 206 bodies whose bytes are those Content-Range names, and resumes with If-Range", async () => {
    const { headers } = await wire("HEAD", "/files/nums/content");
    for (const [range, from, to] of [
      ["bytes=0-99", 0, 99],
      ["bytes=70000-70099", 70_000, 70_099],
      [`bytes=-10`, bytes.length - 10, bytes.length - 1],
    ] as const) {
      const got = await wire("GET", "/files/nums/content", { Range: range, "If-Range": String(headers.etag) });
      expect(got.status).toBe(206);
      expect(got.headers["content-encoding"]).toBe("identity");
      expect(got.headers["content-range"]).toBe(`bytes ${from}-${to}/${bytes.length}`);
      expect(got.headers["content-length"]).toBe(String(to - from + 1));
      expect(new Uint8Array(got.body)).toEqual(bytes.subarray(from, to + 1));
    }
  });

  test("gets the same Content-Length from HEAD as from GET on the JSON routes", async () => {
    for (const path of ["/files", "/files/nums", "/limits", "/files/nums/uploads", "/files/missing"]) {
      const got = await wire("GET", path);
      const head = await wire("HEAD", path);
      expect(got.headers["content-encoding"]).toBe("identity");
      expect({ path, status: head.status, length: head.headers["content-length"] }).toEqual({
        path,
        status: got.status,
        length: String(got.body.length),
      });
    }
  });

  test("a 304 is not labelled gzip", async () => {
    const { headers } = await wire("HEAD", "/files/nums/content");
    const unchanged = await wire("GET", "/files/nums/content", { "If-None-Match": String(headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers["content-encoding"]).toBe("identity");
  });

  test("Node's fetch sees the Content-Length and the bytes", async () => {
    const response = await fetch(`${worker.url}/files/nums/content`, {
      headers: { Authorization: `Bearer ${worker.token}` },
    });
    expect(response.headers.get("Content-Length")).toBe(String(bytes.length));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });
});

describe("the CLI's client", () => {
  test("asks for identity", async () => {
    const asked: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      asked.push(request.headers["accept-encoding"]);
      response.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "2" }).end("1\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const content = await new WorkerClient(`http://127.0.0.1:${port}`, "t").content("nums");
      expect(await new Response(content.body).text()).toBe("1\n");
    } finally {
      server.close();
    }
    expect(asked).toEqual(["identity"]);
  });

  test("reads part by part when the content read meets 503 subrequest-limit, without retrying it", async () => {
    const contentReads: string[] = [];
    // In front of the worker: the content read answered as a Free deployment left at PLAN=paid answers it.
    const front = createServer(async (request, response) => {
      if (request.url === "/files/nums/content") {
        contentReads.push(request.url);
        const body = JSON.stringify({ error: "subrequest-limit", detail: "Cannot read", subrequests: 1000 });
        response.writeHead(503, { "Content-Type": "application/json" }).end(body);
        return;
      }
      const answer = await fetch(`${worker.url}${request.url}`, {
        headers: { Authorization: String(request.headers.authorization) },
      });
      response.writeHead(answer.status, { "Content-Type": String(answer.headers.get("Content-Type")) });
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = front.address() as AddressInfo;
      const content = await new WorkerClient(`http://127.0.0.1:${port}`, worker.token).content("nums");
      expect(content.size).toBe(bytes.length);
      expect(new Uint8Array(await new Response(content.body).arrayBuffer())).toEqual(bytes);
    } finally {
      front.close();
    }
    expect(contentReads).toHaveLength(1);
    expect(isRetryable(new WorkerError("read", 503, { error: "subrequest-limit", detail: "d" }))).toBe(false);
  });

  test("so knows the size of what it downloads", async () => {
    const client = new WorkerClient(worker.url, worker.token);
    const content = await client.content("nums");
    expect(content.size).toBe(bytes.length);
    expect(new Uint8Array(await new Response(content.body).arrayBuffer())).toEqual(bytes);
  });
});
