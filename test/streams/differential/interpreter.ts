/**
 * Runs a differential-test program (see `program.ts`) against one implementation and logs what a user can observe
 * (see `differential.test.ts` for what is compared).
 * @module
 */

import * as drainpipe from "../../../src/streams/index.ts";
import {
  type AnyProgram,
  type BatchSinkSpec,
  ERRORING_OPS,
  type Mode,
  type Op,
  PRODUCER_BASE,
  type Producer,
  type Setup,
  type SinkSpec,
  type SinkStep,
  type SourceSpec,
  type Step,
  type StrategySpec,
  type Target,
  type TransformerSpec,
  topologyParts,
  type Watched,
} from "./program.ts";

/** Pipe options, as both implementations take them. */
export interface PipeOptions {
  preventClose?: boolean;
  preventAbort?: boolean;
  preventCancel?: boolean;
  signal?: AbortSignal;
}

/** The part of a default reader the programs use. */
export interface ReaderLike {
  readonly closed: Promise<unknown>;
  read(): Promise<{ done: boolean; value?: unknown }>;
  releaseLock(): void;
  cancel(reason?: unknown): Promise<unknown>;
}

/** The part of a default writer the programs use. */
export interface WriterLike {
  readonly closed: Promise<unknown>;
  readonly ready: Promise<unknown>;
  readonly desiredSize: number | null;
  write(chunk: unknown): Promise<unknown>;
  close(): Promise<unknown>;
  abort(reason?: unknown): Promise<unknown>;
  releaseLock(): void;
}

/** The part of a readable stream the programs use. */
export interface ReadableLike {
  getReader(): ReaderLike;
  cancel(reason?: unknown): Promise<unknown>;
  pipeTo(destination: WritableLike, options?: PipeOptions): Promise<unknown>;
  pipeThrough(pair: { readable: ReadableLike; writable: WritableLike }, options?: PipeOptions): ReadableLike;
}

/** The part of a writable stream the programs use. */
export interface WritableLike {
  getWriter(): WriterLike;
  close(): Promise<unknown>;
  abort(reason?: unknown): Promise<unknown>;
}

/** The part of a transform stream the programs use. */
export interface TransformLike {
  readonly readable: ReadableLike;
  readonly writable: WritableLike;
}

/** A readable stream's default controller. */
export interface ReadableControllerLike {
  readonly desiredSize: number | null;
  enqueue(chunk: unknown): void;
  close(): void;
  error(reason?: unknown): void;
}

/** A writable stream's default controller. */
export interface WritableControllerLike {
  error(reason?: unknown): void;
}

/** A transform stream's default controller. */
export interface TransformControllerLike {
  readonly desiredSize: number | null;
  enqueue(chunk: unknown): void;
  terminate(): void;
  error(reason?: unknown): void;
}

/** The constructors a program runs against: drainpipe's, or Node's globals. */
export interface StreamsImpl {
  ReadableStream: new (source: object, strategy?: object) => ReadableLike;
  WritableStream: new (sink: object, strategy?: object) => WritableLike;
  TransformStream: new (transformer: object, writableStrategy?: object, readableStrategy?: object) => TransformLike;
  CountQueuingStrategy: new (init: { highWaterMark: number }) => object;
  ByteLengthQueuingStrategy: new (init: { highWaterMark: number }) => object;
}

export const drainpipeStreams: StreamsImpl = drainpipe;
export const nativeStreams: StreamsImpl = globalThis;

/** An error a program throws or passes as a reason; logged by its tag. */
export class Boom extends Error {
  readonly tag: string;

  constructor(tag: string) {
    super(`boom ${tag}`);
    this.tag = tag;
  }
}

/** A chunk of a program whose strategies measure byte lengths: `tag` identifies it in logs. */
export type ByteChunk = Uint8Array & { tag: number };

/** Calls `pull` at most this often: a source whose `pull` keeps being called is reported instead of hanging the run. */
export const PULL_LIMIT = 64;

/** How a Node.js internal assertion failure is logged (see {@link isInternalAssertion}). */
export const INTERNAL_ASSERTION = "ERR_INTERNAL_ASSERTION";

/**
 * Whether `error` is Node.js reporting a bug of its own. Node 24 asserts, when `write()` sizes a chunk for a
 * stream whose algorithms were cleared, that the stream is not writable; that does not hold while a close is in
 * flight (nodejs/node#57272, whatwg/streams#1341). A program that trips it says nothing about drainpipe.
 */
export function isInternalAssertion(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === INTERNAL_ASSERTION;
}

/** How Node's crash when a terminated transform stream's readable side is cancelled is logged. */
export const NATIVE_CANCEL_AFTER_TERMINATE = "native cancel after terminate";

/**
 * Whether `error` is Node 24 calling a transform stream's cleared [[cancelAlgorithm]]: cancelling the readable
 * side after `terminate()` while chunks are still queued reaches TransformStreamDefaultSourceCancelAlgorithm, which
 * the standard does not guard there (its [[finishPromise]] guard covers close, abort and cancel only); drainpipe
 * resolves the cancel (see `transform-stream.ts`).
 */
export function isNativeCancelAfterTerminate(error: unknown): boolean {
  return error instanceof TypeError && /cancelAlgorithm is not a function/.test(error.message);
}

/** How Node's own crash in a transform stream's parked write is logged (see {@link isNativeWriteContinuationCrash}). */
export const NATIVE_WRITE_CONTINUATION_CRASH = "native writeContinuation crash";

/**
 * Whether `error` is Node 24's transform stream failing on its own: it queues a parked write's continuation each
 * time backpressure turns off, so when backpressure goes off, on and off again before it runs, the second run
 * finds no pending write and throws where nobody can catch it (`writeContinuation` in
 * node:internal/webstreams/transformstream). The standard, and drainpipe, run the continuation once.
 */
export function isNativeWriteContinuationCrash(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /writeContinuation/.test(error.stack ?? "") &&
    /webstreams\/transformstream/.test(error.stack ?? "")
  );
}

/** A reason or error as logged: the tag of the programs' own errors, the name of other errors. */
export function describeReason(reason: unknown): string {
  if (reason instanceof Boom) return `Boom(${reason.tag})`;
  if (isInternalAssertion(reason)) return INTERNAL_ASSERTION;
  if (isNativeWriteContinuationCrash(reason)) return NATIVE_WRITE_CONTINUATION_CRASH;
  if (isNativeCancelAfterTerminate(reason)) return NATIVE_CANCEL_AFTER_TERMINATE;
  if (reason instanceof Error) return reason.name;
  return String(reason);
}

/** A chunk or read result as logged. */
export function describeValue(value: unknown): string {
  if (value instanceof Uint8Array) return `u8(${(value as ByteChunk).tag}/${value.byteLength})`;
  if (typeof value === "object" && value !== null && "done" in value) {
    const result = value as { done: unknown; value?: unknown };
    return `{done:${String(result.done)},value:${describeValue(result.value)}}`;
  }
  return String(value);
}

/** The number a chunk was made with. */
export function chunkId(chunk: unknown): number {
  if (typeof chunk === "number") return chunk;
  if (chunk instanceof Uint8Array) return (chunk as ByteChunk).tag;
  return -1;
}

export function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `run` with uncaught exceptions and unhandled rejections reported into `log` instead of to the test runner:
 * either means an internal step threw where nobody can catch it, which is a difference like any other, and
 * should be shrunk as one.
 */
export async function recordingUncaughtErrors<T>(log: string[], run: () => Promise<T>): Promise<T> {
  const exceptionListeners = process.listeners("uncaughtException");
  const rejectionListeners = process.listeners("unhandledRejection");
  const record = (error: unknown): void => void log.push(`uncaught ${describeReason(error)}`);
  process.removeAllListeners("uncaughtException");
  process.removeAllListeners("unhandledRejection");
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  try {
    return await run();
  } finally {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
    for (const listener of exceptionListeners) process.on("uncaughtException", listener);
    for (const listener of rejectionListeners) process.on("unhandledRejection", listener);
  }
}

/** The state of one run: the implementation, the streams and their controllers, and the log. */
export class World {
  readonly impl: StreamsImpl;
  readonly log: string[] = [];
  /** The chunks the sink received, in order. */
  readonly received: string[] = [];
  readonly bytes: boolean;
  readonly exact: boolean;
  readonly pending = new Map<Target, { resolve: () => void; reject: (reason: unknown) => void }[]>();
  readonly produced: Record<Producer, number> = { source: 0, writer: 0, outside: 0, transformer: 0 };
  /** Callbacks whose last call queued a microtask that has not run yet (see {@link World.called}). */
  readonly busy = new Set<string>();
  /** Set while the program is inside `reader.read()`. */
  reading = false;
  /**
   * How many of the program's `write()`, writable-side `close()` and readable-side `cancel()` promises are unsettled.
   */
  readonly unsettled: Record<Watched, number> = { write: 0, close: 0, cancel: 0 };
  /** Set once the writable side was aborted or errored while a close was pending (see {@link World.run}). */
  readyDiverges = false;
  nextPromise = 0;
  pulls = 0;
  /** How many errors of its own the program made, per site. */
  readonly booms = new Map<string, number>();
  rc: ReadableControllerLike | undefined = undefined;
  wc: WritableControllerLike | undefined = undefined;
  tc: TransformControllerLike | undefined = undefined;
  exit: ReadableLike | undefined = undefined;
  entry: WritableLike | undefined = undefined;
  reader: ReaderLike | undefined = undefined;
  writer: WriterLike | undefined = undefined;
  signal: AbortController | undefined = undefined;

  /**
   * `exact`: also log what depends on when a pipe reads, which the specification leaves to the implementation:
   * the desired sizes seen by callbacks and right after an operation, and the calls of size functions (a chunk
   * enqueued while a read is pending goes to the reader unsized).
   */
  constructor(impl: StreamsImpl, strategies: StrategySpec[], exact: boolean) {
    this.impl = impl;
    this.bytes = strategies.some((strategy) => strategy.kind === "bytes");
    this.exact = exact;
  }

  /** The desired size `controller` reports, for a log line, when {@link World.exact}. */
  ds(controller: { readonly desiredSize: number | null }): string {
    return this.exact ? ` ds=${controller.desiredSize}` : "";
  }

  /** A new chunk of `producer`: a number, or a byte array when a strategy counts bytes. */
  chunk(producer: Producer): unknown {
    const id = PRODUCER_BASE[producer] + this.produced[producer]++;
    return this.bytes ? Object.assign(new Uint8Array(id % 4), { tag: id }) : id;
  }

  /** A new error of the program's own. */
  error(site: string): Boom {
    const made = this.booms.get(site) ?? 0;
    this.booms.set(site, made + 1);
    return new Boom(`${site}${made}`);
  }

  /**
   * Calls `start` and logs how the promise it returns settles, when it does, under a number given in call order
   * (or what `start` throws); a promise of kind `watched` counts in {@link World.unsettled} until then.
   */
  track(label: string, start: () => Promise<unknown>, watched?: Watched): void {
    const id = this.nextPromise++;
    let promise: Promise<unknown>;
    try {
      promise = start();
    } catch (error) {
      this.log.push(`${label}#${id} threw ${describeReason(error)}`);
      return;
    }
    if (watched !== undefined) this.unsettled[watched]++;
    const settled = (outcome: string): void => {
      if (watched !== undefined) this.unsettled[watched]--;
      this.log.push(`${label}#${id} ${outcome}`);
    };
    promise.then(
      (value) => settled(`fulfilled ${describeValue(value)}`),
      (reason) => settled(`rejected ${describeReason(reason)}`),
    );
  }

  /** Runs `action`, logging what it throws; returns whether it returned. */
  attempt(label: string, action: () => void): boolean {
    try {
      action();
      return true;
    } catch (error) {
      this.log.push(`${label} threw ${describeReason(error)}`);
      return false;
    }
  }

  /** Builds a strategy with this implementation's classes; a size function logs its calls under `owner`. */
  strategy(spec: StrategySpec, owner: string): object | undefined {
    switch (spec.kind) {
      case "default":
        return undefined;
      case "object":
        return { highWaterMark: spec.hwm };
      case "count":
        return new this.impl.CountQueuingStrategy({ highWaterMark: spec.hwm });
      case "bytes":
        return new this.impl.ByteLengthQueuingStrategy({ highWaterMark: spec.hwm });
      case "size": {
        const kind = spec.size;
        return {
          highWaterMark: spec.hwm,
          size: (chunk: unknown) => {
            if (this.exact) this.log.push(`${owner}.size ${describeValue(chunk)}`);
            const id = chunkId(chunk);
            return kind === "mod3" ? id % 3 : id % 7 === 6 ? -1 : 1;
          },
        };
      }
    }
  }

  /**
   * Completes a callback as `mode` says; `late` runs after an await in mode "async". The promises of `pull`,
   * `write` and `transform` are handed over as plain thenables: Node 24 takes a promise those callbacks return
   * as it is (`PromiseResolve`), while Web IDL converts it to a new promise that adopts it, two microtasks later
   * (nodejs/node#51168 once fixed exactly this). Both adopt a thenable the same way, so the comparison is not
   * about that native deviation.
   */
  complete(target: Target, mode: Mode, late?: () => void): PromiseLike<void> | undefined {
    const promise = this.promiseFor(target, mode, late);
    if (promise === undefined || (target !== "pull" && target !== "write" && target !== "transform")) return promise;
    // biome-ignore lint/suspicious/noThenProperty: a thenable that is not a native promise is the point here
    return { then: (onFulfilled, onRejected) => promise.then(onFulfilled, onRejected) };
  }

  /** The promise (or `undefined`, or a throw) a callback completes with, see {@link World.complete}. */
  promiseFor(target: Target, mode: Mode, late?: () => void): Promise<void> | undefined {
    switch (mode) {
      case "sync":
        return undefined;
      case "resolved":
        return Promise.resolve();
      case "async":
        return (async () => {
          await undefined;
          late?.();
        })();
      case "deferred":
        return new Promise<void>((resolve, reject) => {
          const queue = this.pending.get(target) ?? [];
          queue.push({ resolve, reject });
          this.pending.set(target, queue);
        });
      case "throw":
        throw this.error(target);
      case "reject":
        return Promise.reject(this.error(target));
    }
  }

  /**
   * Notes a call of `pull`, `write`/`writev` or `transform`. Each call queues a microtask. On lone streams no
   * implementation may call the same callback again before it runs, since the next call waits for a reaction to
   * the completion of this one, which can only be queued once the call has returned; a call that comes earlier is
   * logged. Not in pipes: there drainpipe deliberately finishes a pull or a sink write that completed
   * synchronously at once and goes on (its draining reads and coalesced writes), where the standard's algorithm
   * would wait for a reaction; nobody but the callbacks themselves can see that. A call made inside `read()` is
   * always logged: that is `pull` on a lone readable stream, but nothing that a pipe could choose to do at another
   * time (a pipe learns of a read through promises only).
   */
  called(callback: string): void {
    if (this.reading) this.log.push(`${callback} called inside read()`);
    if (this.exact && this.busy.has(callback))
      this.log.push(`${callback} called again before the microtask its previous call queued`);
    this.busy.add(callback);
    queueMicrotask(() => this.busy.delete(callback));
  }

  /** Enqueues `count` new chunks of `producer` (stops at the first throw), logging `desiredSize` if asked. */
  enqueue(
    who: string,
    producer: Producer,
    controller: ReadableControllerLike | TransformControllerLike,
    count: number,
    observe: boolean,
  ): void {
    for (let i = 0; i < count; i++) {
      const chunk = this.chunk(producer);
      if (!this.attempt(`${who}.enqueue ${describeValue(chunk)}`, () => controller.enqueue(chunk))) return;
      if (observe) this.log.push(`${who}.enqueue ${describeValue(chunk)}${this.ds(controller)}`);
    }
  }

  /** The desired sizes a user can read without side effects. */
  probe(): string {
    const parts: string[] = [];
    if (this.rc !== undefined) parts.push(`rc=${this.rc.desiredSize}`);
    if (this.tc !== undefined) parts.push(`tc=${this.tc.desiredSize}`);
    const writer = this.writer;
    if (writer !== undefined) {
      let size: string;
      try {
        size = String(writer.desiredSize);
      } catch (error) {
        size = describeReason(error);
      }
      parts.push(`w=${size}`);
    }
    return parts.join(" ");
  }

  /** An underlying source following `spec`. */
  source(spec: SourceSpec): object {
    const source: Record<string, unknown> = {
      start: (controller: ReadableControllerLike) => {
        this.rc = controller;
        this.log.push(`source.start ds=${controller.desiredSize}`);
        this.enqueue("source.start", "source", controller, spec.start.enqueue, false);
        if (spec.start.close) this.attempt("source.start close", () => controller.close());
        return this.complete("start", spec.start.mode);
      },
    };
    const steps = spec.pull;
    if (steps !== null) {
      source.pull = (controller: ReadableControllerLike) => {
        const call = ++this.pulls;
        this.called("source.pull");
        this.log.push(`source.pull#${call}${this.ds(controller)}`);
        if (call > PULL_LIMIT) return new Promise<void>(() => {});
        if (call > spec.pulls) {
          this.attempt("source.pull close", () => controller.close());
          return undefined;
        }
        const step = steps[(call - 1) % steps.length] as Step;
        return this.runStep("source.pull", "source", "pull", step, controller, () => controller.close());
      };
    }
    const cancel = spec.cancel;
    if (cancel !== null) {
      source.cancel = (reason: unknown) => {
        this.log.push(`source.cancel ${describeReason(reason)}`);
        return this.complete("cancel", cancel);
      };
    }
    return source;
  }

  /** One scripted call of `pull` or `transform`. */
  runStep(
    who: string,
    producer: Producer,
    target: Target,
    step: Step,
    controller: ReadableControllerLike | TransformControllerLike,
    end: () => void,
  ): PromiseLike<void> | undefined {
    this.enqueue(who, producer, controller, step.enqueue, false);
    if (step.end) this.attempt(`${who} end`, end);
    if (step.error) this.attempt(`${who} error`, () => controller.error(this.error(target)));
    return this.complete(target, step.mode, () => this.enqueue(`${who} late`, producer, controller, step.late, false));
  }

  /** The `start`, `close` and `abort` members of a sink. */
  sinkLifecycle(spec: { start: Mode; close: Mode; abort: Mode | null }): Record<string, unknown> {
    const members: Record<string, unknown> = {
      start: (controller: WritableControllerLike) => {
        this.wc = controller;
        this.log.push("sink.start");
        return this.complete("wstart", spec.start);
      },
      close: () => {
        this.log.push("sink.close");
        return this.complete("close", spec.close);
      },
    };
    const abort = spec.abort;
    if (abort !== null) {
      members.abort = (reason: unknown) => {
        this.log.push(`sink.abort ${describeReason(reason)}`);
        return this.complete("abort", abort);
      };
    }
    return members;
  }

  /** An underlying sink following `spec`. */
  sink(spec: SinkSpec): object {
    let writes = 0;
    return {
      ...this.sinkLifecycle(spec),
      write: (chunk: unknown, controller: WritableControllerLike) => {
        this.called("sink.write");
        this.log.push(`sink.write ${describeValue(chunk)}`);
        this.received.push(describeValue(chunk));
        const step = spec.write[writes++ % spec.write.length] as SinkStep;
        if (step.error) this.attempt("sink.write error", () => controller.error(this.error("write")));
        return this.complete("write", step.mode);
      },
    };
  }

  /**
   * A sink for the `writev` property; `writev` adds the batch method. It records chunks in
   * {@link World.received} only, as the calls differ.
   */
  batchSink(spec: BatchSinkSpec, writev: boolean): object {
    const write = (chunk: unknown) => {
      this.called("sink.write");
      this.received.push(describeValue(chunk));
      return this.complete("write", spec.write);
    };
    if (!writev) return { ...this.sinkLifecycle(spec), write };
    const batch = (chunks: unknown[]) => {
      this.called("sink.write");
      for (const chunk of chunks) this.received.push(describeValue(chunk));
      return this.complete("write", spec.write);
    };
    return spec.withWrite
      ? { ...this.sinkLifecycle(spec), write, writev: batch }
      : { ...this.sinkLifecycle(spec), writev: batch };
  }

  /** A transformer following `spec`. */
  transformer(spec: TransformerSpec): object {
    const transformer: Record<string, unknown> = {
      start: (controller: TransformControllerLike) => {
        this.tc = controller;
        this.log.push(`transformer.start ds=${controller.desiredSize}`);
        this.enqueue("transformer.start", "transformer", controller, spec.start.enqueue, false);
        return this.complete("tstart", spec.start.mode);
      },
    };
    const steps = spec.transform;
    if (steps !== null) {
      let calls = 0;
      transformer.transform = (chunk: unknown, controller: TransformControllerLike) => {
        this.called("transformer.transform");
        this.log.push(`transformer.transform ${describeValue(chunk)}${this.ds(controller)}`);
        const step = steps[calls++ % steps.length] as Step;
        return this.runStep("transformer.transform", "transformer", "transform", step, controller, () =>
          controller.terminate(),
        );
      };
    }
    const flush = spec.flush;
    if (flush !== null) {
      transformer.flush = (controller: TransformControllerLike) => {
        this.log.push(`transformer.flush${this.ds(controller)}`);
        this.enqueue("transformer.flush", "transformer", controller, flush.enqueue, false);
        return this.complete("flush", flush.mode);
      };
    }
    const cancel = spec.cancel;
    if (cancel !== null) {
      transformer.cancel = (reason: unknown) => {
        this.log.push(`transformer.cancel ${describeReason(reason)}`);
        return this.complete("tcancel", cancel);
      };
    }
    return transformer;
  }

  /** Builds the program's streams, with `sink` and its strategy as the underlying sink, and connects them. */
  setUp(program: Setup, sink: object, sinkStrategy: StrategySpec): void {
    const { impl } = this;
    const { topology, pipe, transformer } = program;
    const parts = topologyParts(topology);
    const source = parts.source
      ? new impl.ReadableStream(this.source(program.source), this.strategy(program.source.strategy, "source"))
      : undefined;
    const writable = parts.sink ? new impl.WritableStream(sink, this.strategy(sinkStrategy, "sink")) : undefined;
    const transform = parts.transform
      ? new impl.TransformStream(
          this.transformer(transformer),
          this.strategy(transformer.writableStrategy, "transform.writable"),
          this.strategy(transformer.readableStrategy, "transform.readable"),
        )
      : undefined;
    let options: PipeOptions = {
      preventClose: pipe.preventClose,
      preventAbort: pipe.preventAbort,
      preventCancel: pipe.preventCancel,
    };
    if (pipe.signal) {
      this.signal = new AbortController();
      options = { ...options, signal: this.signal.signal };
    }
    this.exit =
      topology === "readable"
        ? source
        : topology === "transform" || topology === "pipeThrough"
          ? transform?.readable
          : undefined;
    this.entry =
      topology === "writable"
        ? writable
        : topology === "transform" || topology === "writeThrough"
          ? transform?.writable
          : undefined;
    if (topology === "pipeTo" && source !== undefined && writable !== undefined)
      this.track("pipeTo", () => source.pipeTo(writable, options));
    if (topology === "pipeThrough" && source !== undefined && transform !== undefined) {
      this.attempt("pipeThrough", () => (this.exit = source.pipeThrough(transform, options)));
    }
    if (topology === "chain" && source !== undefined && transform !== undefined && writable !== undefined) {
      this.track("pipeTo", () => source.pipeThrough(transform, options).pipeTo(writable, options));
    }
    if (topology === "writeThrough" && transform !== undefined && writable !== undefined) {
      this.track("pipeTo", () => transform.readable.pipeTo(writable, options));
    }
  }

  /** The reader operations act on, acquired on first use. */
  currentReader(): ReaderLike | undefined {
    if (this.reader === undefined && this.exit !== undefined) {
      const exit = this.exit;
      this.attempt("getReader", () => (this.reader = exit.getReader()));
    }
    return this.reader;
  }

  /** The writer operations act on, acquired on first use. */
  currentWriter(): WriterLike | undefined {
    if (this.writer === undefined && this.entry !== undefined) {
      const entry = this.entry;
      this.attempt("getWriter", () => (this.writer = entry.getWriter()));
    }
    return this.writer;
  }

  /**
   * Runs one operation and logs what it observes.
   *
   * Node 24 materializes a writer's `ready` promise when it is first read and derives it from the stream's state
   * then. When the writable side starts erroring while its close is in flight (an abort, `controller.error()` of
   * the sink or the transformer, `terminate()`, or a cancel of a transform stream's readable side, which errors it
   * once the transformer's `cancel` has settled) and the close then succeeds, the stream ends "closed", and a
   * `ready` first read after that is fulfilled, where the specification (and drainpipe) keep it rejected with the
   * error: a native bug, whatever the high-water mark. Once that may have happened (one of those operations while
   * a close is pending, or a close while a cancel is pending), `ready` is not read any more.
   */
  async run(op: Op): Promise<void> {
    this.log.push(`> ${JSON.stringify(op)}`);
    const { rc, tc, wc } = this;
    const closing = op.op === "writerClose" || op.op === "streamClose";
    if ((ERRORING_OPS.has(op.op) && this.unsettled.close > 0) || (closing && this.unsettled.cancel > 0))
      this.readyDiverges = true;
    switch (op.op) {
      case "enqueue":
        if (rc !== undefined) this.enqueue("enqueue", "source", rc, op.count, op.observe);
        break;
      case "close":
        if (rc !== undefined) this.attempt("close", () => rc.close());
        break;
      case "error":
        if (rc !== undefined) this.attempt("error", () => rc.error(this.error("error")));
        break;
      case "tEnqueue":
        if (tc !== undefined) this.enqueue("tEnqueue", "outside", tc, op.count, true);
        break;
      case "terminate":
        if (tc !== undefined) this.attempt("terminate", () => tc.terminate());
        break;
      case "tError":
        if (tc !== undefined) this.attempt("tError", () => tc.error(this.error("tError")));
        break;
      case "wError":
        if (wc !== undefined) this.attempt("wError", () => wc.error(this.error("wError")));
        break;
      case "getReader": {
        const exit = this.exit;
        let reader: ReaderLike | undefined;
        if (exit === undefined || !this.attempt("getReader", () => (reader = exit.getReader())) || reader === undefined)
          break;
        const acquired = reader;
        this.reader = acquired;
        if (op.observeClosed) this.track("reader.closed", () => acquired.closed);
        break;
      }
      case "read": {
        const reader = this.currentReader();
        if (reader === undefined) break;
        for (let i = 0; i < op.count; i++) {
          this.reading = true;
          this.track("read", () => reader.read());
          this.reading = false;
        }
        break;
      }
      case "releaseReader": {
        const reader = this.reader;
        if (reader === undefined) break;
        this.attempt("releaseReader", () => reader.releaseLock());
        this.reader = undefined;
        break;
      }
      case "cancel": {
        const reason = this.error("cancel");
        const reader = op.viaReader ? this.currentReader() : undefined;
        const exit = this.exit;
        if (reader !== undefined) this.track("reader.cancel", () => reader.cancel(reason), "cancel");
        else if (!op.viaReader && exit !== undefined) this.track("stream.cancel", () => exit.cancel(reason), "cancel");
        break;
      }
      case "getWriter": {
        const entry = this.entry;
        let writer: WriterLike | undefined;
        if (
          entry === undefined ||
          !this.attempt("getWriter", () => (writer = entry.getWriter())) ||
          writer === undefined
        )
          break;
        const acquired = writer;
        this.writer = acquired;
        if (op.observeClosed) this.track("writer.closed", () => acquired.closed);
        break;
      }
      case "write": {
        const writer = this.currentWriter();
        if (writer === undefined) break;
        for (let i = 0; i < op.count; i++) this.track("write", () => writer.write(this.chunk("writer")), "write");
        if (op.ready && !this.readyDiverges) this.track("ready", () => writer.ready);
        break;
      }
      case "writerClose": {
        const writer = this.currentWriter();
        if (writer !== undefined) this.track("writer.close", () => writer.close(), "close");
        break;
      }
      case "writerAbort": {
        const writer = this.currentWriter();
        if (writer !== undefined) this.track("writer.abort", () => writer.abort(this.error("abort")));
        break;
      }
      case "releaseWriter": {
        const writer = this.writer;
        if (writer === undefined) break;
        this.attempt("releaseWriter", () => writer.releaseLock());
        this.writer = undefined;
        break;
      }
      case "streamClose": {
        const entry = this.entry;
        if (entry !== undefined) this.track("stream.close", () => entry.close(), "close");
        break;
      }
      case "streamAbort": {
        const entry = this.entry;
        if (entry !== undefined) this.track("stream.abort", () => entry.abort(this.error("abort")));
        break;
      }
      case "settle": {
        const settler = this.pending.get(op.target)?.shift();
        if (settler === undefined) break;
        if (op.ok) settler.resolve();
        else settler.reject(this.error(`settle-${op.target}`));
        break;
      }
      case "signal":
        this.signal?.abort(op.withReason ? this.error("signal") : undefined);
        break;
      case "ticks":
        for (let i = 0; i < op.count; i++) await Promise.resolve();
        break;
      case "macrotask":
        await nextTask();
        break;
    }
    if (this.exact) this.log.push(`= ${this.probe()}`);
  }

  /**
   * Runs the operations. `atRest`: after setting up and after each operation, waits until nothing is left to do
   * and sorts what was logged meanwhile, so that only what happened is compared, not in which order.
   */
  async execute(ops: Op[], atRest: boolean): Promise<void> {
    if (atRest) await this.rest(0);
    for (const op of ops) {
      const hazard = this.hazard(op);
      if (hazard !== undefined) {
        this.log.push(`stopped before ${JSON.stringify(op)}: ${hazard}`);
        // The streams still come to rest (uncaught errors included), but nothing they log from now on is compared.
        const kept = this.log.length;
        for (let i = 0; i < 3; i++) await nextTask();
        this.log.length = kept;
        return;
      }
      const start = this.log.length;
      await this.run(op);
      if (atRest) await this.rest(start);
    }
    for (let i = 0; i < 3; i++) await nextTask();
    this.log.push(`end ${this.probe()}`, `sink received ${this.received.join(" ")}`);
  }

  /**
   * Why the program stops before `op`, if it does: what follows would be compared in a situation the
   * specification does not cover, so nothing after it is logged.
   *
   * Cancelling a transform stream's readable side clears the transformer's algorithms at once, but errors the
   * writable side only once the transformer's `cancel` has settled; a write that reaches the transformer in
   * between finds no algorithm, where the specification asserts that the writable side is no longer writable
   * (whatwg/streams#1341). Node (nodejs/node#62036) and drainpipe both let such a write succeed, but settle it at
   * different microtasks relative to the cancel. A spec hole, not a bug of either: the program stops at a cancel
   * while writes are pending, or at a write while a cancel is pending.
   */
  hazard(op: Op): string | undefined {
    const cancelling = op.op === "cancel" && (op.viaReader || this.reader === undefined);
    if (cancelling && this.unsettled.write > 0) return "cancel with writes pending (whatwg/streams#1341)";
    if (op.op === "write" && this.unsettled.cancel > 0) return "write with a cancel pending (whatwg/streams#1341)";
    return undefined;
  }

  /** Waits until nothing is left to do, then sorts the log from `start` on and adds the desired sizes. */
  async rest(start: number): Promise<void> {
    await nextTask();
    const window = this.log.splice(start).sort();
    this.log.push(...window, `~ ${this.probe()}`);
  }
}

/**
 * Runs `program` against `impl`, with the underlying sink `sink` builds, and returns its log; `atRest` as in
 * {@link World.execute}.
 */
export function runProgram(
  impl: StreamsImpl,
  program: AnyProgram,
  sink: (world: World) => object,
  atRest: boolean,
): Promise<string[]> {
  const { source, transformer } = program;
  const strategy = program.sink.strategy;
  const piped = program.topology !== "readable" && program.topology !== "writable" && program.topology !== "transform";
  const strategies = [source.strategy, strategy, transformer.readableStrategy, transformer.writableStrategy];
  const world = new World(impl, strategies, !(atRest && piped));
  return recordingUncaughtErrors(world.log, async () => {
    world.attempt("setUp", () => world.setUp(program, sink(world), strategy));
    await world.execute(program.ops, atRest);
    return world.log;
  });
}
