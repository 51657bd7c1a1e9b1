import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CLI_COMMAND } from "../cli-runner.ts";
import { Terminal } from "../terminal.ts";

// What a user sees in a terminal during `upload`, against a stand-in worker that holds its answer until the test
// releases it, so the moment after the last byte (the bar at 100%, the worker still busy) lasts as long as the
// test needs.
let directory: string;
let server: Server;
let url: string;
let received: () => void;
let release: () => void;

const text = Array.from({ length: 50_000 }, (_, i) => `${i}\n`).join("");

function manifest(name: string): unknown {
  return {
    version: 1,
    name,
    uploadId: "u-test",
    createdAt: "2026-11-25T00:00:00.000Z",
    maxPartBytes: 10_485_760,
    source: { kind: "upload", bytes: text.length, lines: 50_000, canonical: true },
    totals: { parts: 1, bytes: text.length, numbers: 50_000 },
    parts: [{ index: 0, key: "k", bytes: text.length, numbers: 50_000, first: 0, last: 49_999, etag: "e" }],
  };
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-terminal-"));
  server = createServer((request, response) => {
    if (request.method !== "POST") {
      response.writeHead(404, { "Content-Type": "application/json" }).end('{"error":"not-found","detail":"x"}');
      return;
    }
    request.resume();
    request.on("end", () => {
      const answer = new Promise<void>((resolve) => {
        release = resolve;
      });
      received();
      void answer.then(() => {
        response.writeHead(201, { "Content-Type": "application/json" });
        response.end(JSON.stringify(manifest(decodeURIComponent(request.url!.split("/")[2]!))));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("Cannot start the stand-in: no address");
  url = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(directory, { recursive: true, force: true });
});

describe("upload in a terminal", () => {
  test("the bar ends at 100% with ETA 0s; a Ctrl-C then lets the upload finish", { timeout: 60_000 }, async () => {
    const file = join(directory, "numbers.txt");
    await writeFile(file, text);
    const bodyArrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    const terminal = await Terminal.start(`${CLI_COMMAND} upload ${file} --name done --url ${url}`, {
      cwd: directory,
    });
    try {
      await bodyArrived;
      const full = await terminal.waitFor(/upload \[=+\] 100% \| 289 kB \/ 289 kB \| .* \| ETA 0s/);
      expect(full).not.toContain("ms");
      await terminal.press("C-c");
      await terminal.waitFor(/the whole file is sent; letting the worker finish storing it \(Ctrl-C again/);
      release();
      const { code, screen } = await terminal.exit();
      expect(code).toBe(0);
      expect(screen).toContain('stored "done": 50,000 numbers, 289 kB in 1 part');
    } finally {
      await terminal.close();
    }
  });

  test("from standard input that ends within the worker's limit, the bar shows its size, known once it ended", {
    timeout: 60_000,
  }, async () => {
    const file = join(directory, "piped.txt");
    await writeFile(file, text);
    const bodyArrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    const terminal = await Terminal.start(`cat ${file} | ${CLI_COMMAND} upload - --name piped --url ${url}`, {
      cwd: directory,
    });
    try {
      await bodyArrived;
      await terminal.waitFor(/upload \[=+\] 100% \| 289 kB \/ 289 kB \| .* \| ETA 0s/);
      release();
      const { code, screen: final } = await terminal.exit();
      expect(code).toBe(0);
      expect(final).toContain('stored "piped": 50,000 numbers');
    } finally {
      await terminal.close();
    }
  });
});
