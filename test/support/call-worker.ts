import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { meteredBucket } from "../../src/store/metered-bucket.ts";
import type { RequestBudget } from "../../src/store/request-budget.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import worker from "../../src/worker/index.ts";
import { meteredNamespace } from "../../src/worker/metered-namespace.ts";
import { recordingGets } from "./recording-gets.ts";

/** The origin of the tests' requests. */
export const TEST_ORIGIN = "http://drainpipe.test";

/** The `Authorization` header of the tests' deployment (its `API_TOKEN`, set in vitest.config.ts). */
export const TEST_AUTH = { Authorization: "Bearer test-token" } as const;

/** A fetch handler whose environment is `Env`: the deployed worker's, or one `createWorker` made. */
export interface FetchHandler<Env> {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response>;
}

/**
 * Calls `handler` directly (not over HTTP) with `handlerEnv` and a fresh execution context, as workerd would. Work
 * the handler hands to `ctx.waitUntil` (releasing a read once its body is sent) goes on after the response.
 */
export function callHandler<Env>(handler: FetchHandler<Env>, request: Request, handlerEnv: Env): Promise<Response> {
  return handler.fetch(request, handlerEnv, createExecutionContext());
}

/** Calls the deployed worker's fetch handler ({@linkcode callHandler}) with `testEnv`. */
export function callWorker(request: Request, testEnv: DrainpipeEnv = env): Promise<Response> {
  return callHandler(worker, request, testEnv);
}

/** What a test's request carries besides its method and path (see {@linkcode call}). */
export interface CallOptions {
  body?: BodyInit | null | undefined;
  /** Headers over the tests' `Authorization` (an `Authorization` here replaces it). */
  headers?: Record<string, string> | undefined;
  /** Variables, or bindings, over the test deployment's (`PLAN`, `READ_GRACE_SECONDS`, a metered `COORDINATOR`). */
  vars?: object | undefined;
}

/** The request `method` `path` (path and query, after {@linkcode TEST_ORIGIN}) with the tests' token. */
export function testRequest(method: string, path: string, options: CallOptions = {}): Request {
  return new Request(`${TEST_ORIGIN}${path}`, {
    method,
    headers: { ...TEST_AUTH, ...options.headers },
    body: options.body ?? null,
  });
}

/** The test deployment's environment with `vars` over it. */
function testEnv(vars: object | undefined): DrainpipeEnv {
  return (vars === undefined ? env : { ...env, ...vars }) as DrainpipeEnv;
}

/**
 * Sends `method` `path` to the worker with the tests' token ({@linkcode testRequest}) and `options`' body and
 * headers, and resolves with its response. Without `vars` the request goes in through the test deployment's own
 * entry point (`exports.default`), as a request from outside does: workerd runs the work the handler hands to
 * `ctx.waitUntil` (releasing a read once its body is sent) as it does on the platform, so a request sent after a
 * read's body was consumed sees the read released. With `vars` the handler is called directly with the deployment's
 * environment and `vars` over it ({@linkcode callWorker}), and that work goes on after the response: a test that
 * needs it finished uses {@linkcode callUntilDone} or {@linkcode callWorkerToEnd}.
 *
 * @example
 * ```ts
 * const stored = await call("POST", "/files/primes?maxPartBytes=1024", { body: "2\n3\n5\n" });
 * const part = await call("GET", "/files/primes/content", { headers: { Range: "bytes=0-1" } });
 * ```
 */
export function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const request = testRequest(method, path, options);
  return options.vars === undefined ? exports.default.fetch(request) : callWorker(request, testEnv(options.vars));
}

/**
 * Sends the request {@linkcode call} sends, and resolves with its response and `done`, which settles once the work
 * the handler handed to `ctx.waitUntil` has finished: for a test that reads what a request's background work did
 * (released a lease, say) without reading the response's body first.
 */
export async function callUntilDone(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ response: Response; done: Promise<void> }> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(testRequest(method, path, options), testEnv(options.vars), ctx);
  return { response, done: waitOnExecutionContext(ctx) };
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
export interface MeteredCall extends CallOptions {
  method: string;
  /** The path and query, after the origin. */
  path: string;
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
 * Sends `metered` to the worker, authenticated with the tests' token, with its bindings behind its meters (which
 * refuse calls past their limits, as the platform does), and waits for its body and background work
 * ({@linkcode callWorkerToEnd}), so the meters hold the whole request's calls when it resolves.
 */
export function callMetered(metered: MeteredCall): Promise<Response> {
  const meteredEnv = testEnv({
    READ_GRACE_SECONDS: undefined,
    ...metered.vars,
    BUCKET: meteredBucket(metered.reads ? recordingGets(env.BUCKET, metered.reads) : env.BUCKET, metered.bucket),
    COORDINATOR: meteredNamespace(env.COORDINATOR, metered.coordinator),
  });
  return callWorkerToEnd(testRequest(metered.method, metered.path, metered), meteredEnv);
}
