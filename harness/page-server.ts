/**
 * The local HTTP server the browser tests and benchmarks load their pages from: fixed files held in memory
 * (pages, esbuild bundles), optionally a directory on disk under a prefix (the WPT checkout), and `POST /echo`,
 * which answers the bytes it was sent. Every answer carries the same `Content-Security-Policy`, by default
 * `script-src 'self'`: no inline script, no `eval`, no `new Function`.
 *
 * @module
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

/** The policy pages get unless told otherwise: scripts only from this origin, no string evaluation. */
export const STRICT_CSP = "script-src 'self'";

/** A file the server answers from memory. */
export interface ServedFile {
  /** Its `Content-Type`. */
  type: string;
  body: string | Uint8Array;
}

/** Options of {@linkcode startServer}. */
export interface ServerOptions {
  /** The policy of every answer; {@linkcode STRICT_CSP} by default. */
  csp?: string;
  /** A directory on disk served under a path prefix, e.g. `{ prefix: "/", directory: wptDir }`. */
  directory?: { prefix: string; directory: string };
}

/** A running server: its origin (`http://127.0.0.1:<port>`), its files (add more at any time), and `close`. */
export interface PageServer {
  readonly origin: string;
  readonly files: Map<string, ServedFile>;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".idl": "text/plain; charset=utf-8",
};

/** An HTML page loading `scripts` in order (classic scripts unless a path ends in `.mjs`), with `head` in its head. */
export function htmlPage(scripts: readonly string[], head = ""): ServedFile {
  const tags = scripts.map((src) =>
    src.endsWith(".mjs") ? `<script type="module" src="${src}"></script>` : `<script src="${src}"></script>`,
  );
  return { type: TYPES[".html"]!, body: `<!doctype html><meta charset="utf-8">${head}\n${tags.join("\n")}\n` };
}

/** A JavaScript file (classic script, worker or module). */
export function script(body: string): ServedFile {
  return { type: TYPES[".js"]!, body };
}

async function echo(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  response.writeHead(200, { "content-type": "application/octet-stream" });
  response.end(Buffer.concat(parts));
}

/**
 * Starts a server on a free port of 127.0.0.1 (a secure context for the browsers, so service workers work).
 *
 * @example
 * ```ts
 * const server = await startServer();
 * server.files.set("/", htmlPage(["/page.js"]));
 * server.files.set("/page.js", script("document.title = 'hi';"));
 * await server.close();
 * ```
 */
export async function startServer(options: ServerOptions = {}): Promise<PageServer> {
  const files = new Map<string, ServedFile>();
  const csp = options.csp ?? STRICT_CSP;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    response.setHeader("content-security-policy", csp);
    response.setHeader("cache-control", "no-store");
    if (url.pathname === "/echo" && request.method === "POST") {
      echo(request, response).catch((error: unknown) => response.destroy(error as Error));
      return;
    }
    const file = files.get(url.pathname);
    if (file) {
      response.writeHead(200, { "content-type": file.type });
      response.end(file.body);
      return;
    }
    const served = options.directory;
    if (served && url.pathname.startsWith(served.prefix)) {
      const relative = normalize(decodeURIComponent(url.pathname.slice(served.prefix.length)));
      if (!relative.startsWith("..")) {
        readFile(join(served.directory, relative)).then(
          (body) => {
            response.writeHead(200, { "content-type": TYPES[extname(relative)] ?? "application/octet-stream" });
            response.end(body);
          },
          () => {
            response.writeHead(404);
            response.end();
          },
        );
        return;
      }
    }
    response.writeHead(404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    files,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
