/**
 * Types of the `cloudflare:workers` module inside the workerd tests (`env`, `exports`): the bindings are
 * the worker's, and `exports.default` is its handler. Kept out of `src/worker` so the worker's modules do
 * not import each other in a loop.
 */
import type { DrainpipeEnv } from "../../src/worker/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends DrainpipeEnv {}
    interface GlobalProps {
      mainModule: typeof import("../../src/worker/index.ts");
    }
  }
}
