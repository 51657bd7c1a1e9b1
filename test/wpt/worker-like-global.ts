import { readFile } from "node:fs/promises";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

const globalEvents = new EventTarget();

/**
 * Gives the current realm's global object what WPT's streams tests expect of a dedicated worker's global on top of
 * what Node already provides (timers, `queueMicrotask`, `structuredClone`, `MessageChannel`, `AbortController`,
 * `DOMException`, `TextEncoder`, ...):
 *
 * - `self`, pointing at the global;
 * - `addEventListener`/`removeEventListener`/`dispatchEvent`, so that testharness.js listens for `error` and
 *   `unhandledrejection` there (see {@link routeUncaughtErrorsToGlobal});
 * - `gc`, V8's garbage collector, which `common/gc.js` uses when it exists (V8 already provides it when the
 *   process runs with `--expose-gc`, or once another file worker has turned that flag on);
 * - `fetch`, answering the root-relative URLs that idlharness.js requests (`/interfaces/streams.idl`) from the WPT
 *   checkout at `wptDir`.
 *
 * Meant to run once, in a fresh worker thread, before testharness.js is evaluated.
 */
export function makeGlobalWorkerLike(wptDir: string): void {
  defineGlobal("self", globalThis);
  if (!("gc" in globalThis)) {
    defineGlobal("gc", exposeGarbageCollector());
  }
  defineGlobal("fetch", (input: unknown) => fetchFromCheckout(wptDir, String(input)));

  defineGlobal("addEventListener", globalEvents.addEventListener.bind(globalEvents));
  defineGlobal("removeEventListener", globalEvents.removeEventListener.bind(globalEvents));
  defineGlobal("dispatchEvent", globalEvents.dispatchEvent.bind(globalEvents));
}

/**
 * From now on, re-dispatches this thread's uncaught exceptions and unhandled rejections as `error` and
 * `unhandledrejection` events on the global, as a browser does, instead of letting them end the thread. Call it once
 * the harness is set up, so that failures of the runner's own setup still end the thread and get reported as a crash.
 */
export function routeUncaughtErrorsToGlobal(): void {
  process.on("uncaughtException", reportUncaughtError);
  process.on("unhandledRejection", (reason: unknown) => {
    globalEvents.dispatchEvent(eventWith("unhandledrejection", { reason }));
  });
}

/**
 * Makes the global an instance of `DedicatedWorkerGlobalScope` (and of `WorkerGlobalScope`) by inserting those
 * interfaces' prototypes at the head of its prototype chain, as in a real dedicated worker. idlharness.js tests
 * `self instanceof DedicatedWorkerGlobalScope` to know which IDL interfaces must be exposed. Call it after
 * testharness.js has been evaluated: testharness.js makes the same test to pick its environment, and must keep the
 * shell environment, which reports results through callbacks in this thread instead of posting them to a page.
 */
export function presentAsDedicatedWorker(): void {
  const workerGlobalScope = illegalConstructor("WorkerGlobalScope", Object.getPrototypeOf(globalThis) as object);
  const dedicatedWorkerGlobalScope = illegalConstructor("DedicatedWorkerGlobalScope", workerGlobalScope.prototype);
  Object.setPrototypeOf(globalThis, dedicatedWorkerGlobalScope.prototype);
  defineGlobal("WorkerGlobalScope", workerGlobalScope);
  defineGlobal("DedicatedWorkerGlobalScope", dedicatedWorkerGlobalScope);
}

function illegalConstructor(name: string, parentPrototype: object): { prototype: object } {
  const illegal = {
    // biome-ignore lint/complexity/useArrowFunction: an interface object needs a `prototype`, which arrows lack
    [name]: function () {
      throw new TypeError(`Cannot construct ${name}: it is not a constructor`);
    },
  }[name] as unknown as { prototype: object };
  Object.setPrototypeOf(illegal.prototype, parentPrototype);
  return illegal;
}

/**
 * Defines a global the way Web IDL defines interface objects and operations on a global: writable, configurable and
 * not enumerable, so that tests (and idlharness.js) see the same property shape as in a browser.
 */
export function defineGlobal(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
}

/**
 * Dispatches an `error` event carrying `error` on the global, as a browser does for an exception nothing caught
 * (testharness.js then sets the harness status to `ERROR`, or fails the test of a single-test file).
 */
export function reportUncaughtError(error: unknown): void {
  globalEvents.dispatchEvent(eventWith("error", { error, message: describeError(error) }));
}

function eventWith(type: string, properties: Record<string, unknown>): Event {
  const event = new Event(type);
  for (const [key, value] of Object.entries(properties)) {
    Object.defineProperty(event, key, { value, enumerable: true });
  }
  return event;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * V8 installs `gc` only into contexts created while `--expose-gc` is on; turning the flag on and creating a
 * throwaway context yields a working collector without asking every caller to pass the flag to Node. The flag is
 * process-wide and left on: turning it back off would race with the other file workers doing the same.
 */
function exposeGarbageCollector(): unknown {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc");
}

async function fetchFromCheckout(wptDir: string, url: string): Promise<Response> {
  if (!url.startsWith("/")) {
    throw new TypeError(`Cannot fetch ${url}: the WPT runner only serves root-relative paths of the checkout`);
  }
  try {
    return new Response(await readFile(path.join(wptDir, url), "utf8"));
  } catch (error) {
    return new Response(describeError(error), { status: 404 });
  }
}
