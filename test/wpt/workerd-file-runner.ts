/**
 * The worker that runs one WPT test file inside workerd; `workerd-suite.ts` bundles it and starts one copy per test
 * file (each in its own isolate, so every file gets a fresh global), then POSTs it a {@link WorkerdFileRequest}.
 * The response ({@link WorkerdFileResponse}) holds the {@link WorkerMessage}s the file produced, ending with the
 * harness status, and what it printed.
 *
 * Scripts are evaluated with workerd's `UnsafeEval` binding (workerd forbids `eval` otherwise), in the global scope,
 * as a browser evaluates classic scripts; the global `eval` goes through it too. The implementation under test is
 * the worker's second module, imported by the specifier the request names.
 */
import { type ScriptSource, startHarnessSession } from "./harness-session.ts";
import type { WorkerMessage } from "./results.ts";
import { defineGlobal, reportUnhandledRejection } from "./worker-like-global.ts";

/** The body of the request that runs a file. */
export interface WorkerdFileRequest {
  /** testharness.js, the META includes and the test file, in evaluation order. */
  readonly scripts: readonly ScriptSource[];
  readonly title: string | undefined;
  /** Specifier of the module of the implementation under test, or `null` for workerd's own streams. */
  readonly implementationModule: string | null;
  /** When testharness.js is told to time out the subtests still running. */
  readonly timeoutMs: number;
}

/** The body of the answer: what the file reported, and what it printed through `console`. */
export interface WorkerdFileResponse {
  readonly messages: readonly WorkerMessage[];
  readonly output: string;
}

/** The bindings `workerd-suite.ts` gives each worker. */
interface Env {
  /** workerd's `UnsafeEval`: evaluates a classic script in the global scope. */
  readonly UNSAFE_EVAL: { eval(script: string, name?: string): unknown };
  /** Serves root-relative paths of the WPT checkout (idlharness.js's `/interfaces/*.idl`). */
  readonly CHECKOUT: { fetch(input: string): Promise<Response> };
}

type Listener = (event: Event & { reason?: unknown }) => void;
const nativeAddEventListener = (globalThis as unknown as { addEventListener(type: string, listener: Listener): void })
  .addEventListener;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const body = (await request.json()) as WorkerdFileRequest;
    const messages: WorkerMessage[] = [];
    const output: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      console[method] = (...values: unknown[]) => void output.push(`${values.map(String).join(" ")}\n`);
    }
    let complete = (): void => {};
    const completed = new Promise<void>((resolve) => {
      complete = resolve;
    });
    const implementation =
      body.implementationModule === null
        ? null
        : ((await import(body.implementationModule)) as Record<string, unknown>);
    // workerd refuses code generation from strings, and idlharness.js evaluates the expressions naming the objects
    // it checks (`eval("new ReadableStream()")`); they only refer to globals, so a global-scope evaluation is the same.
    defineGlobal("eval", (code: unknown) => env.UNSAFE_EVAL.eval(String(code)));
    const session = startHarnessSession({
      scripts: body.scripts,
      title: body.title,
      implementation,
      fetch: (url) => env.CHECKOUT.fetch(`http://checkout${url}`),
      evaluate: ({ source, filename }) => env.UNSAFE_EVAL.eval(source, filename),
      post: (message) => {
        messages.push(message);
        if (message.kind === "complete") {
          complete();
        }
      },
      // workerd dispatches unhandled rejections on the global (its own addEventListener, replaced by the session's);
      // exceptions thrown by timer callbacks it only logs, so those cannot reach testharness.js here.
      onHarnessReady: () =>
        nativeAddEventListener.call(globalThis, "unhandledrejection", (event) => {
          event.preventDefault();
          reportUnhandledRejection(event.reason);
        }),
    });
    const timer = setTimeout(() => session.timeout(), body.timeoutMs);
    await completed;
    clearTimeout(timer);
    const response: WorkerdFileResponse = { messages, output: output.join("") };
    return Response.json(response);
  },
};
