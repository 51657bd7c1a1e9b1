/**
 * Runs a fuzzer {@link Program} against one streams implementation and records what a user can observe: every
 * callback call, what each operation returns or throws, every promise settlement in the order it happens, the
 * final state of every stream, and errors nobody can catch.
 * @module
 */

import {
  type CallStep,
  type Completion,
  type Op,
  type PipeSpec,
  type Program,
  type PullAction,
  type TransformAction,
  usesPipe,
} from "./program.ts";

/** The public surface of one implementation: drainpipe's exports, or the runtime's globals. */
export interface StreamsImpl {
  ReadableStream: new (source?: object, strategy?: object) => unknown;
  WritableStream: new (sink?: object, strategy?: object) => unknown;
  TransformStream: new (transformer?: object, writableStrategy?: object, readableStrategy?: object) => unknown;
}

// The programs drive the implementations through their public API only, with loose types: a call that is wrong
// for the stream's current state is part of what is compared (it throws or rejects the same way, or not).
// biome-ignore lint/suspicious/noExplicitAny: any public method may be called on any stream.
type Loose = any;

/** An error made by the program; compared by its tag (other errors are compared by name). */
export class Boom extends Error {
  /** Where the program made it, and how many such errors it had made there before. */
  readonly tag: string;

  constructor(tag: string) {
    super(`boom ${tag}`);
    this.tag = tag;
  }
}

/** What one run recorded. */
export interface Trace {
  /** Everything observed, in order; at rest, `--- after N` separates the operations. */
  log: string[];
  /** Errors thrown where nobody could catch them (uncaught exceptions, unhandled rejections). */
  uncaught: unknown[];
  /** Every error an operation threw or a promise rejected with. */
  errors: unknown[];
}

/** Bound on the calls of one callback: the next call throws, so that a program cannot loop forever. */
const CALL_LIMIT = 64;

/** The bound for sinks and transformers: past any source's, so that a source that never ends reaches its first. */
const DOWNSTREAM_CALL_LIMIT = 4 * CALL_LIMIT;

/** A value as logged. */
export function describe(value: unknown): string {
  if (value instanceof Boom) return `Boom(${value.tag})`;
  if (value instanceof Error)
    return (value as Error & { code?: unknown }).code === "ERR_INTERNAL_ASSERTION"
      ? "ERR_INTERNAL_ASSERTION"
      : value.name;
  if (value instanceof Uint8Array) return `u8[${Array.from(value).join(",")}]`;
  if (typeof value === "object" && value !== null && "done" in value) {
    const result = value as { done: unknown; value?: unknown };
    return `{done:${String(result.done)},value:${describe(result.value)}}`;
  }
  if (typeof value === "string") return value;
  return String(value);
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A thenable that settles as `promise` does (a native promise returned by a callback would be adopted differently). */
function thenable(promise: Promise<unknown>): PromiseLike<unknown> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable is what the callback returns on purpose.
    then: (onFulfilled, onRejected) => promise.then(onFulfilled, onRejected),
  };
}

class Run {
  readonly log: string[] = [];
  readonly errors: unknown[] = [];
  readonly readables: Loose[] = [];
  readonly writables: Loose[] = [];
  readonly transforms: Loose[] = [];
  readonly readers = new Map<Loose, Loose>();
  readonly writers = new Map<Loose, Loose>();
  readonly iterators = new Map<Loose, Loose>();
  readonly signals: AbortController[] = [];
  sourceController: Loose = undefined;
  sinkController: Loose = undefined;
  readonly transformControllers: Loose[] = [];
  private readonly booms = new Map<string, number>();
  private nextPromise = 0;
  private outsideChunks = 0;
  private written = 0;
  readonly impl: StreamsImpl;
  readonly program: Program;

  /** Whether the program pipes (see `usesPipe`). */
  readonly piped: boolean;

  constructor(impl: StreamsImpl, program: Program) {
    this.impl = impl;
    this.program = program;
    this.piped = usesPipe(program);
  }

  boom(site: string): Boom {
    const made = this.booms.get(site) ?? 0;
    this.booms.set(site, made + 1);
    return new Boom(`${site}.${made}`);
  }

  /** Logs how `promise` settles, under a number given in call order. */
  track(label: string, make: () => unknown): void {
    let result: unknown;
    try {
      result = make();
    } catch (error) {
      this.errors.push(error);
      this.log.push(`${label} threw ${describe(error)}`);
      return;
    }
    if (!(result instanceof Promise)) return;
    const id = this.nextPromise++;
    result.then(
      (value) => this.log.push(`${label}#${id} fulfilled ${describe(value)}`),
      (reason) => {
        this.errors.push(reason);
        this.log.push(`${label}#${id} rejected ${describe(reason)}`);
      },
    );
  }

  /** Runs `action`, logging what it throws. */
  attempt(label: string, action: () => unknown): unknown {
    try {
      return action();
    } catch (error) {
      this.errors.push(error);
      this.log.push(`${label} threw ${describe(error)}`);
      return undefined;
    }
  }

  /**
   * Runs a callback's script: the action now or on a later microtask, then completes as `completion` says.
   * Returns what the callback returns.
   */
  complete(site: string, step: { deferred: boolean; completion: Completion }, action: () => void): unknown {
    const act = (): void => {
      this.attempt(`${site} action`, action);
    };
    const { completion } = step;
    if (!step.deferred) act();
    if (completion === "sync" && !step.deferred) return undefined;
    if (completion === "throw") {
      if (step.deferred) void Promise.resolve().then(act);
      throw this.boom(site);
    }
    const done = Promise.resolve().then(() => {
      if (step.deferred) act();
      if (completion === "rejectLater") throw this.boom(site);
    });
    if (completion === "sync") {
      done.catch(() => undefined);
      return undefined;
    }
    return thenable(done);
  }

  /**
   * The `k`th chunk made at `site` (`start`, `p<n>` for the nth pull, `outside`): a string, or for a byte stream
   * two bytes that say the same (the site's number, then `k`).
   */
  chunk(site: string, k: number, bytes: boolean): unknown {
    if (!bytes) return `${site}/${k}`;
    const siteNumber = site === "start" ? 250 : site === "outside" ? 251 : Number(site.slice(1));
    return new Uint8Array([siteNumber, k]);
  }

  sourceAction(site: string, action: PullAction, controller: Loose, bytes: boolean): void {
    const chunk = (k: number): unknown => this.chunk(site, k, bytes);
    switch (action) {
      case "nothing":
        return;
      case "enqueue":
        controller.enqueue(chunk(0));
        return;
      case "enqueue2":
        controller.enqueue(chunk(0));
        controller.enqueue(chunk(1));
        return;
      case "close":
        controller.close();
        return;
      case "enqueueClose":
        controller.enqueue(chunk(0));
        controller.close();
        return;
      case "error":
        controller.error(this.boom(`${site}.error`));
        return;
      case "enqueueError":
        controller.enqueue(chunk(0));
        controller.error(this.boom(`${site}.error`));
        return;
      case "respond":
      case "respondWithNewView": {
        const request = bytes ? controller.byobRequest : null;
        if (request === null || request === undefined) {
          controller.enqueue(chunk(0));
          return;
        }
        const view = request.view as Uint8Array;
        if (action === "respond") {
          if (view.byteLength > 0) view[0] = 7;
          request.respond(Math.min(1, view.byteLength));
        } else {
          const newView = new Uint8Array(view.buffer, view.byteOffset, Math.min(1, view.byteLength));
          if (newView.byteLength > 0) newView[0] = 9;
          request.respondWithNewView(newView);
        }
        return;
      }
    }
  }

  transformAction(site: string, action: TransformAction, chunk: unknown, controller: Loose): void {
    switch (action) {
      case "nothing":
        return;
      case "enqueue":
        controller.enqueue(chunk);
        return;
      case "enqueue2":
        controller.enqueue(chunk);
        controller.enqueue(`${site}/extra`);
        return;
      case "error":
        controller.error(this.boom(`${site}.error`));
        return;
      case "terminate":
        controller.terminate();
        return;
      case "enqueueTerminate":
        controller.enqueue(chunk);
        controller.terminate();
        return;
    }
  }

  setUp(): void {
    const { source, sink, transformers } = this.program;
    const bytes = source.type === "bytes";
    let pulls = 0;
    const pullStep = (index: number): CallStep<PullAction> =>
      source.pulls[index] ?? { action: source.neverCloses ? "enqueue" : "close", deferred: false, completion: "sync" };
    const underlyingSource: Loose = {
      start: (controller: Loose) => {
        this.sourceController = controller;
        this.log.push("source.start");
        return this.complete("source.start", source.start, () =>
          this.sourceAction("start", source.start.action, controller, bytes),
        );
      },
      pull: (controller: Loose) => {
        const index = pulls++;
        this.log.push(`source.pull#${index} ds=${controller.desiredSize}`);
        if (index >= CALL_LIMIT) throw this.boom("source.pull.limit");
        const step = pullStep(index);
        return this.complete(`source.pull${index}`, step, () =>
          this.sourceAction(`p${index % 250}`, step.action, controller, bytes),
        );
      },
      cancel: (reason: unknown) => {
        this.log.push(`source.cancel ${describe(reason)}`);
        return this.complete("source.cancel", { deferred: false, completion: source.cancel }, () => undefined);
      },
    };
    if (bytes) {
      underlyingSource.type = "bytes";
      if (source.autoAllocateChunkSize > 0) underlyingSource.autoAllocateChunkSize = source.autoAllocateChunkSize;
    }
    this.readables.push(new this.impl.ReadableStream(underlyingSource, { highWaterMark: source.highWaterMark }));

    let writes = 0;
    const underlyingSink = {
      start: (controller: Loose) => {
        this.sinkController = controller;
        this.log.push("sink.start");
        return this.complete("sink.start", { deferred: false, completion: sink.start }, () => undefined);
      },
      write: (chunk: unknown, controller: Loose) => {
        const index = writes++;
        this.log.push(`sink.write#${index} ${describe(chunk)}`);
        if (index >= DOWNSTREAM_CALL_LIMIT) throw this.boom("sink.write.limit");
        const step = sink.writes[index] ?? { action: "nothing", deferred: false, completion: "sync" };
        return this.complete(`sink.write${index}`, step, () => {
          if (step.action === "error") controller.error(this.boom(`sink.write${index}.error`));
        });
      },
      close: () => {
        this.log.push("sink.close");
        return this.complete("sink.close", { deferred: false, completion: sink.close }, () => undefined);
      },
      abort: (reason: unknown) => {
        this.log.push(`sink.abort ${describe(reason)}`);
        return this.complete("sink.abort", { deferred: false, completion: sink.abort }, () => undefined);
      },
    };
    if (sink.writev === true) {
      (underlyingSink as Loose).writev = (chunks: unknown[], controller: Loose) => {
        for (const chunk of chunks) underlyingSink.write(chunk, controller);
      };
    }
    this.writables.push(new this.impl.WritableStream(underlyingSink, { highWaterMark: sink.highWaterMark }));

    transformers.forEach((spec, t) => {
      let transforms = 0;
      const transformer = {
        start: (controller: Loose) => {
          this.transformControllers[t] = controller;
        },
        transform: (chunk: unknown, controller: Loose) => {
          const index = transforms++;
          this.log.push(`t${t}.transform#${index} ${describe(chunk)}`);
          if (index >= DOWNSTREAM_CALL_LIMIT) throw this.boom(`t${t}.transform.limit`);
          const step: CallStep<TransformAction> = spec.transforms[index] ?? {
            action: "enqueue",
            deferred: false,
            completion: "sync",
          };
          return this.complete(`t${t}.transform${index}`, step, () =>
            this.transformAction(`t${t}.${index}`, step.action, chunk, controller),
          );
        },
        flush: (controller: Loose) => {
          this.log.push(`t${t}.flush`);
          return this.complete(`t${t}.flush`, spec.flush, () =>
            this.transformAction(`t${t}.flush`, spec.flush.action, `t${t}.flushed`, controller),
          );
        },
        cancel: (reason: unknown) => {
          this.log.push(`t${t}.cancel ${describe(reason)}`);
          return this.complete(`t${t}.cancel`, { deferred: false, completion: spec.cancel }, () => undefined);
        },
      };
      const stream: Loose = new this.impl.TransformStream(
        transformer,
        { highWaterMark: spec.writableHighWaterMark },
        { highWaterMark: spec.readableHighWaterMark },
      );
      this.transforms.push(stream);
      this.readables.push(stream.readable);
      this.writables.push(stream.writable);
    });
  }

  private pick<T>(list: T[], index: number): T | undefined {
    return list.length === 0 ? undefined : list[index % list.length];
  }

  private reader(stream: Loose, mode: "default" | "byob"): Loose {
    const current = this.readers.get(stream);
    if (current !== undefined) return current;
    const reader = this.attempt(`getReader(${mode})`, () =>
      mode === "byob" ? stream.getReader({ mode: "byob" }) : stream.getReader(),
    );
    if (reader !== undefined) this.readers.set(stream, reader);
    return reader;
  }

  private writer(stream: Loose): Loose {
    const current = this.writers.get(stream);
    if (current !== undefined) return current;
    const writer = this.attempt("getWriter", () => stream.getWriter());
    if (writer !== undefined) this.writers.set(stream, writer);
    return writer;
  }

  private pipeOptions(spec: PipeSpec): object {
    const options: Loose = {
      preventClose: spec.preventClose,
      preventAbort: spec.preventAbort,
      preventCancel: spec.preventCancel,
    };
    if (spec.signal) {
      const controller = new AbortController();
      this.signals.push(controller);
      options.signal = controller.signal;
    }
    return options;
  }

  async perform(op: Op, index: number): Promise<void> {
    const label = `op${index}.${op.op}`;
    const r = "r" in op ? this.pick(this.readables, op.r) : undefined;
    const w = "w" in op ? this.pick(this.writables, op.w) : undefined;
    switch (op.op) {
      case "getReader":
      case "getBYOBReader":
        if (!this.readers.has(r)) this.reader(r, op.op === "getReader" ? "default" : "byob");
        return;
      case "read": {
        const reader = this.reader(r, "default");
        if (reader === undefined) return;
        const isByob = reader.constructor.name === "ReadableStreamBYOBReader";
        this.track(label, () => (isByob ? reader.read(new Uint8Array(2)) : reader.read()));
        return;
      }
      case "readBYOB": {
        const reader = this.reader(r, "byob");
        if (reader === undefined) return;
        const isByob = reader.constructor.name === "ReadableStreamBYOBReader";
        const min = Math.min(op.min, op.size);
        this.track(label, () => (isByob ? reader.read(new Uint8Array(op.size), { min }) : reader.read()));
        return;
      }
      case "releaseReader": {
        const reader = this.readers.get(r);
        if (reader === undefined) return;
        this.readers.delete(r);
        this.attempt(label, () => reader.releaseLock());
        return;
      }
      case "cancelReader": {
        const reader = this.readers.get(r);
        if (reader !== undefined) this.track(label, () => reader.cancel(this.boom(label)));
        return;
      }
      case "cancel":
        this.track(label, () => r.cancel(this.boom(label)));
        return;
      case "iteratorNext": {
        let iterator = this.iterators.get(r);
        if (iterator === undefined) {
          iterator = this.attempt(label, () => r.values({ preventCancel: op.preventCancel }));
          if (iterator === undefined) return;
          this.iterators.set(r, iterator);
        }
        this.track(label, () => iterator.next());
        return;
      }
      case "iteratorReturn": {
        const iterator = this.iterators.get(r);
        if (iterator !== undefined) this.track(label, () => iterator.return(this.boom(label)));
        return;
      }
      case "forAwait":
        this.track(label, async () => {
          let taken = 0;
          for await (const chunk of r) {
            this.log.push(`${label} got ${describe(chunk)}`);
            taken += 1;
            if (taken < op.take) continue;
            if (op.exit === "break") break;
            throw this.boom(label);
          }
          return taken;
        });
        return;
      case "tee": {
        const branches = this.attempt(label, () => r.tee()) as Loose[] | undefined;
        if (branches !== undefined) this.readables.push(...branches);
        return;
      }
      case "pipeTo":
        this.track(label, () => r.pipeTo(w, this.pipeOptions(op.options)));
        return;
      case "pipeThrough": {
        const t = this.pick(this.transforms, op.t);
        if (t === undefined) return;
        this.attempt(label, () => r.pipeThrough(t, this.pipeOptions(op.options)));
        return;
      }
      case "abortSignal":
        this.attempt(label, () => this.pick(this.signals, op.pipe)?.abort(this.boom(label)));
        return;
      case "getWriter":
        this.writer(w);
        return;
      case "write": {
        const writer = this.writer(w);
        if (writer !== undefined) this.track(label, () => writer.write(`w${this.written++}`));
        return;
      }
      case "writerClose": {
        const writer = this.writer(w);
        if (writer !== undefined) this.track(label, () => writer.close());
        return;
      }
      case "writerAbort": {
        const writer = this.writer(w);
        if (writer !== undefined) this.track(label, () => writer.abort(this.boom(label)));
        return;
      }
      case "releaseWriter": {
        const writer = this.writers.get(w);
        if (writer === undefined) return;
        this.writers.delete(w);
        this.attempt(label, () => writer.releaseLock());
        return;
      }
      case "close":
        this.track(label, () => w.close());
        return;
      case "abort":
        this.track(label, () => w.abort(this.boom(label)));
        return;
      case "sourceEnqueue": {
        const bytes = this.program.source.type === "bytes";
        const chunk = this.chunk("outside", this.outsideChunks++ % 256, bytes);
        this.attempt(label, () => this.sourceController?.enqueue(chunk));
        return;
      }
      case "sourceClose":
        this.attempt(label, () => this.sourceController?.close());
        return;
      case "sourceError":
        this.attempt(label, () => this.sourceController?.error(this.boom(label)));
        return;
      case "sinkError":
        this.attempt(label, () => this.sinkController?.error(this.boom(label)));
        return;
      case "transformEnqueue":
        this.attempt(label, () => this.pick(this.transformControllers, op.t)?.enqueue(`${label}/0`));
        return;
      case "transformTerminate":
        this.attempt(label, () => this.pick(this.transformControllers, op.t)?.terminate());
        return;
      case "transformError":
        this.attempt(label, () => this.pick(this.transformControllers, op.t)?.error(this.boom(label)));
        return;
      case "microtask":
        await Promise.resolve();
        return;
      case "task":
        await nextTask();
        return;
    }
  }

  /** Logs each stream's final state, as public operations show it. */
  async probe(): Promise<void> {
    this.readables.forEach((stream: Loose, index) => {
      this.log.push(`final R${index} locked=${stream.locked}`);
      if (stream.locked) return;
      const reader: Loose = this.attempt(`final R${index} getReader`, () => stream.getReader());
      if (reader === undefined) return;
      this.track(`final R${index} closed`, () => reader.closed);
      // Under a pipe, which chunk is next depends on how far the pipe read (its pace): only whether one is.
      if (this.piped) {
        const result = this.attempt(`final R${index} read`, () => reader.read()) as Promise<{ done: boolean }>;
        result?.then(
          (value) => this.log.push(`final R${index} read fulfilled done=${value.done}`),
          (reason: unknown) => this.log.push(`final R${index} read rejected ${describe(reason)}`),
        );
      } else {
        this.track(`final R${index} read`, () => reader.read());
      }
    });
    this.writables.forEach((stream: Loose, index) => {
      this.log.push(`final W${index} locked=${stream.locked}`);
      if (stream.locked) return;
      const writer: Loose = this.attempt(`final W${index} getWriter`, () => stream.getWriter());
      if (writer === undefined) return;
      this.log.push(`final W${index} desiredSize=${writer.desiredSize}`);
      this.track(`final W${index} closed`, () => writer.closed);
    });
    await nextTask();
  }
}

/**
 * Runs `program` on `impl`. `atRest`: wait until nothing is left to do after each operation and mark the end of
 * each operation in the log (for programs whose pace the standard leaves to the implementation).
 */
export async function runProgram(impl: StreamsImpl, program: Program, atRest: boolean): Promise<Trace> {
  const uncaught: unknown[] = [];
  const record = (error: unknown): void => {
    uncaught.push(error);
  };
  const exceptionListeners = process.listeners("uncaughtException");
  const rejectionListeners = process.listeners("unhandledRejection");
  process.removeAllListeners("uncaughtException");
  process.removeAllListeners("unhandledRejection");
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  const run = new Run(impl, program);
  try {
    run.attempt("setUp", () => run.setUp());
    if (atRest) {
      await nextTask();
      run.log.push("--- set up");
    }
    for (let index = 0; index < program.ops.length; index++) {
      await run.perform(program.ops[index] as Op, index);
      if (atRest) {
        await nextTask();
        run.log.push(`--- after ${index}`);
      }
    }
    await nextTask();
    run.log.push("--- final");
    await run.probe();
    await nextTask();
  } finally {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
    for (const listener of exceptionListeners) process.on("uncaughtException", listener);
    for (const listener of rejectionListeners) process.on("unhandledRejection", listener);
  }
  return { log: run.log, uncaught, errors: run.errors };
}
