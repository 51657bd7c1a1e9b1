/**
 * Makes the current realm's global look like a dedicated worker's to testharness.js and the streams tests. Nothing
 * here depends on the host: Node, Deno and Bun file workers (`file-worker.ts`) and the workerd file runner
 * (`workerd-file-runner.ts`) pass what differs (a garbage collector, where `/interfaces/*.idl` come from) as
 * {@link WorkerLikeGlobalOptions}.
 */

const globalEvents = new EventTarget();

/** What the host provides to {@link makeGlobalWorkerLike}. */
export interface WorkerLikeGlobalOptions {
  /** Answers the root-relative URLs that idlharness.js requests (`/interfaces/streams.idl`). */
  readonly fetch: (url: string) => Promise<Response>;
  /** A garbage collector for `common/gc.js`, when the runtime has one; without it gc.js makes garbage instead. */
  readonly gc?: (() => unknown) | undefined;
}

/**
 * Gives the current realm's global object what WPT's streams tests expect of a dedicated worker's global on top of
 * what the runtime already provides (timers, `queueMicrotask`, `structuredClone`, `MessageChannel`, `AbortController`,
 * `DOMException`, `TextEncoder`, ...):
 *
 * - `self`, pointing at the global;
 * - `addEventListener`/`removeEventListener`/`dispatchEvent`, so that testharness.js listens for `error` and
 *   `unhandledrejection` there (see {@link reportUncaughtError} and {@link reportUnhandledRejection});
 * - `gc`, when the host has a collector and the global has none;
 * - `fetch`, answering the root-relative URLs that idlharness.js requests.
 *
 * Meant to run once, in a fresh realm, before testharness.js is evaluated.
 */
export function makeGlobalWorkerLike(options: WorkerLikeGlobalOptions): void {
  defineGlobal("self", globalThis);
  if (!("gc" in globalThis) && options.gc !== undefined) {
    defineGlobal("gc", options.gc);
  }
  defineGlobal("fetch", (input: unknown) => options.fetch(String(input)));

  defineGlobal("addEventListener", globalEvents.addEventListener.bind(globalEvents));
  defineGlobal("removeEventListener", globalEvents.removeEventListener.bind(globalEvents));
  defineGlobal("dispatchEvent", globalEvents.dispatchEvent.bind(globalEvents));
}

/** Interfaces whose presence makes testharness.js pick a worker environment that posts results to a parent. */
const NATIVE_SCOPE_INTERFACES = [
  "DedicatedWorkerGlobalScope",
  "SharedWorkerGlobalScope",
  "ServiceWorkerGlobalScope",
  "WorkerGlobalScope",
] as const;

/**
 * Removes the global-scope interfaces the runtime defines itself (Deno's worker threads are real
 * `DedicatedWorkerGlobalScope`s, workerd's global is a `ServiceWorkerGlobalScope`), so that testharness.js, evaluated
 * next, picks its shell environment, which reports results through callbacks in this realm.
 * {@link presentAsDedicatedWorker} then puts back the dedicated worker's.
 */
export function hideNativeWorkerScopes(): void {
  for (const name of NATIVE_SCOPE_INTERFACES) {
    Reflect.deleteProperty(globalThis, name);
  }
}

/**
 * Makes the global an instance of `DedicatedWorkerGlobalScope` (and of `WorkerGlobalScope`) by inserting those
 * interfaces' prototypes at the head of its prototype chain, as in a real dedicated worker. idlharness.js tests
 * `self instanceof DedicatedWorkerGlobalScope` to know which IDL interfaces must be exposed. Call it after
 * testharness.js has been evaluated: testharness.js makes the same test to pick its environment, and must keep the
 * shell environment, which reports results through callbacks in this realm instead of posting them to a page.
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

/** Dispatches an `unhandledrejection` event carrying `reason` on the global, as a browser does. */
export function reportUnhandledRejection(reason: unknown): void {
  globalEvents.dispatchEvent(eventWith("unhandledrejection", { reason }));
}

function eventWith(type: string, properties: Record<string, unknown>): Event {
  const event = new Event(type);
  for (const [key, value] of Object.entries(properties)) {
    Object.defineProperty(event, key, { value, enumerable: true });
  }
  return event;
}

/** The message of an error, or the value as a string. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
