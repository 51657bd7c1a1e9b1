/**
 * Recognises the host's own streams: objects of the platform's `ReadableStream` and `WritableStream` classes (as
 * `globalThis` had them when drainpipe loaded, so replacing the globals with drainpipe's later changes nothing),
 * told apart from look-alikes by the platform's own brand check: its `locked` getter, which throws for any object
 * the platform did not create.
 * @module
 */

import "../platform-types.ts";

/** The host's `ReadableStream` constructor, as far as feeding it from an underlying source needs. */
export type HostReadableStreamClass = new <R>(
  source: {
    pull(controller: { enqueue(chunk: R): void; close(): void }): Promise<void>;
    cancel(reason: unknown): Promise<unknown> | undefined;
  },
  strategy: { highWaterMark: number },
) => ReadableStream<R> & { pipeTo(destination: WritableStream<R>, options: object): Promise<unknown> };

const globals = globalThis as { ReadableStream?: unknown; WritableStream?: unknown };

function lockedGetter(host: unknown): ((this: unknown) => boolean) | undefined {
  if (typeof host !== "function") return undefined;
  const prototype = (host as { prototype: object }).prototype;
  return Object.getOwnPropertyDescriptor(prototype, "locked")?.get as ((this: unknown) => boolean) | undefined;
}

const hostReadableClass = globals.ReadableStream as HostReadableStreamClass | undefined;
const readableLocked = lockedGetter(globals.ReadableStream);
const writableLocked = lockedGetter(globals.WritableStream);

/** Whether the platform's brand check accepts `value`: `locked` answers it, or `undefined` when it throws. */
function brandedLocked(getter: ((this: unknown) => boolean) | undefined, value: unknown): boolean | undefined {
  if (getter === undefined || value === null || typeof value !== "object") return undefined;
  try {
    return getter.call(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether `value` is one of the host's own readable streams.
 * @example
 * ```ts
 * isHostReadableStream(new Response("x").body); // true
 * isHostReadableStream({ locked: false, getReader() {} }); // false
 * ```
 */
export function isHostReadableStream(value: unknown): value is ReadableStream {
  return brandedLocked(readableLocked, value) !== undefined;
}

/**
 * Whether the host's brand check accepts `value` as one of its writable streams, and it is locked: `undefined`
 * when `value` is not one.
 * @example
 * ```ts
 * hostWritableStreamLocked(new CompressionStream("gzip").writable); // false
 * hostWritableStreamLocked({}); // undefined
 * ```
 */
export function hostWritableStreamLocked(value: unknown): boolean | undefined {
  return brandedLocked(writableLocked, value);
}

/**
 * The host's `ReadableStream` class, for streams made to hand data to the host.
 *
 * @throws {TypeError} "Cannot create a host stream: …" where the platform has none.
 */
export function hostReadableStreamClass(): HostReadableStreamClass {
  if (hostReadableClass === undefined) {
    throw new TypeError("Cannot create a host stream: the platform has no ReadableStream");
  }
  return hostReadableClass;
}
