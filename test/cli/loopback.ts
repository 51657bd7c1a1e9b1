import type { Server } from "node:http";

/**
 * Starts `server` on a free port of the loopback interface and resolves its origin, e.g. `http://127.0.0.1:41873`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:http";
 * const url = await listenOnLoopback(createServer((_request, response) => response.end("ok")));
 * ```
 */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("Cannot start the server: no address");
  return `http://127.0.0.1:${address.port}`;
}
