import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { meteredBucket } from "../../src/store/metered-bucket.ts";
import type { RequestBudget } from "../../src/store/request-budget.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import worker from "../../src/worker/index.ts";
import { meteredNamespace } from "../../src/worker/metered-namespace.ts";
import { recordingGets } from "./recording-gets.ts";

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

/** A request of a test that meters what the worker calls (see {@linkcode callMetered}). */
export interface MeteredCall {
  method: string;
  /** The path and query, after the origin. */
  path: string;
  headers?: Record<string, string> | undefined;
  body?: BodyInit | undefined;
  /** Variables over the test deployment's (the read grace period is unset: reads take no lease). */
  vars?: object | undefined;
  /** Counts (and limits) the request's R2 calls. */
  bucket: RequestBudget;
  /** Counts (and limits) its coordinator calls: the same budget as `bucket` to count them together. */
  coordinator: RequestBudget;
  /** Receives the bytes each R2 `get` of the request's own delivers (a ranged get: the range's length). */
  reads?: number[] | undefined;
}

/**
 * Sends `call` to the worker, authenticated with the tests' token, with its bindings behind the call's meters (which
 * refuse calls past their limits, as the platform does), and waits for its body and background work
 * ({@linkcode callWorkerToEnd}), so the meters hold the whole request's calls when it resolves.
 */
export function callMetered(call: MeteredCall): Promise<Response> {
  const metered = {
    ...env,
    READ_GRACE_SECONDS: undefined,
    ...call.vars,
    BUCKET: meteredBucket(call.reads ? recordingGets(env.BUCKET, call.reads) : env.BUCKET, call.bucket),
    COORDINATOR: meteredNamespace(env.COORDINATOR, call.coordinator),
  } as DrainpipeEnv;
  const request = new Request(`http://drainpipe.test${call.path}`, {
    method: call.method,
    headers: { Authorization: "Bearer test-token", ...call.headers },
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  return callWorkerToEnd(request, metered);
}
