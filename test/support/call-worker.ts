import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import worker from "../../src/worker/index.ts";

/**
 * Calls the worker's fetch handler directly (not over HTTP) with `testEnv` and a fresh execution context, as
 * workerd would. Work the handler hands to `ctx.waitUntil` (releasing a read once its body is sent) goes on
 * after the response.
 */
export function callWorker(request: Request, testEnv: DrainpipeEnv = env): Promise<Response> {
  return worker.fetch(request, testEnv, createExecutionContext());
}

/**
 * Calls the worker's fetch handler with `testEnv`, reads the whole response body and waits for the work handed to
 * `ctx.waitUntil`: what a test that counts a request's calls needs before it reads the counts.
 */
export async function callWorkerToEnd(request: Request, testEnv: DrainpipeEnv): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, testEnv, ctx);
  const body = await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(body, response);
}
