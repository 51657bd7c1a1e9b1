/**
 * The programs of the differential property tests (see `differential.test.ts`): topologies, underlying sources,
 * sinks and transformers as scripts, strategies, and the operations a program performs. Plain data.
 * @module
 */

/** How a callback completes: its return value, or a throw. */
export type Mode = "sync" | "resolved" | "async" | "deferred" | "throw" | "reject";

/** A queuing strategy, built with the implementation under test. */
export type StrategySpec =
  | { kind: "default" }
  | { kind: "object"; hwm: number }
  | { kind: "count"; hwm: number }
  | { kind: "size"; hwm: number; size: "mod3" | "bad" }
  | { kind: "bytes"; hwm: number };

/** One call of `pull` or `transform`: chunks enqueued at once and after an await (mode "async"), and the end. */
export interface Step {
  enqueue: number;
  late: number;
  mode: Mode;
  /** pull: close the stream; transform: terminate it. */
  end: boolean;
  /** Error the stream through the controller. */
  error: boolean;
}

/** One call of a sink's `write`. */
export interface SinkStep {
  mode: Mode;
  /** Error the stream through the controller. */
  error: boolean;
}

/** An underlying source; `pull` steps are used in turn, and after `pulls` calls `pull` closes the stream. */
export interface SourceSpec {
  strategy: StrategySpec;
  start: { enqueue: number; close: boolean; mode: Mode };
  pull: Step[] | null;
  pulls: number;
  cancel: Mode | null;
}

/** An underlying sink; `write` steps are used in turn. */
export interface SinkSpec {
  strategy: StrategySpec;
  start: Mode;
  write: SinkStep[];
  close: Mode;
  abort: Mode | null;
}

/**
 * A sink for the `writev` comparison. Its writes always succeed, synchronously or through a promise: a batch is
 * one operation that settles all its writes at once, so per-chunk outcomes are not comparable.
 */
export interface BatchSinkSpec {
  strategy: StrategySpec;
  start: Mode;
  write: Mode;
  close: Mode;
  abort: Mode | null;
  /** drainpipe's sink also has `write` (otherwise a single chunk reaches `writev` as a one-element array). */
  withWrite: boolean;
}

/** A transformer; `transform: null` leaves the identity transform. */
export interface TransformerSpec {
  writableStrategy: StrategySpec;
  readableStrategy: StrategySpec;
  start: { enqueue: number; mode: Mode };
  transform: Step[] | null;
  flush: { enqueue: number; mode: Mode } | null;
  cancel: Mode | null;
}

/** Which streams exist and how they are connected. */
export type Topology = "readable" | "writable" | "transform" | "pipeTo" | "pipeThrough" | "chain" | "writeThrough";

/** Options of every pipe in a program; `signal` adds an `AbortSignal` that the `signal` operation aborts. */
export interface PipeSpec {
  preventClose: boolean;
  preventAbort: boolean;
  preventCancel: boolean;
  signal: boolean;
}

/** Callbacks whose promise a `settle` operation can fulfil or reject. */
export type Target =
  | "start"
  | "pull"
  | "cancel"
  | "wstart"
  | "write"
  | "close"
  | "abort"
  | "tstart"
  | "transform"
  | "flush"
  | "tcancel";

/** Promises of the program whose settlement `World.hazard` and `World.run` (`interpreter.ts`) keep count of. */
export type Watched = "write" | "close" | "cancel";

/** The operations that can error a writable side: directly, or through the transform stream it belongs to. */
export const ERRORING_OPS: ReadonlySet<Op["op"]> = new Set([
  "writerAbort",
  "streamAbort",
  "wError",
  "terminate",
  "tError",
  "cancel",
]);

/** Whose chunk it is: each producer numbers its chunks from its own base (see `World.chunk` in `interpreter.ts`). */
export type Producer = "source" | "writer" | "outside" | "transformer";

export const PRODUCER_BASE: Record<Producer, number> = { source: 0, writer: 1000, outside: 2000, transformer: 3000 };

/** One step of a program. */
export type Op =
  | { op: "enqueue"; count: number; observe: boolean }
  | { op: "close" }
  | { op: "error" }
  | { op: "tEnqueue"; count: number }
  | { op: "terminate" }
  | { op: "tError" }
  | { op: "wError" }
  | { op: "getReader"; observeClosed: boolean }
  | { op: "read"; count: number }
  | { op: "releaseReader" }
  | { op: "cancel"; viaReader: boolean }
  | { op: "getWriter"; observeClosed: boolean }
  | { op: "write"; count: number; ready: boolean }
  | { op: "writerClose" }
  | { op: "writerAbort" }
  | { op: "releaseWriter" }
  | { op: "streamClose" }
  | { op: "streamAbort" }
  | { op: "settle"; target: Target; ok: boolean }
  | { op: "signal"; withReason: boolean }
  | { op: "ticks"; count: number }
  | { op: "macrotask" };

/** The streams of a program and how they are connected. */
export interface Setup {
  topology: Topology;
  source: SourceSpec;
  transformer: TransformerSpec;
  pipe: PipeSpec;
  ops: Op[];
}

/** A program of the first two properties. */
export interface Program extends Setup {
  sink: SinkSpec;
}

/** A program of the `writev` property. */
export interface BatchProgram extends Setup {
  sink: BatchSinkSpec;
}

/** A program of any property: what the interpreter needs to know of its sink is the strategy. */
export type AnyProgram = Setup & { sink: { strategy: StrategySpec } };

/** Which streams a topology has. */
export function topologyParts(topology: Topology): { source: boolean; sink: boolean; transform: boolean } {
  return {
    source: topology === "readable" || topology === "pipeTo" || topology === "pipeThrough" || topology === "chain",
    sink: topology === "writable" || topology === "pipeTo" || topology === "chain" || topology === "writeThrough",
    transform:
      topology === "transform" || topology === "pipeThrough" || topology === "chain" || topology === "writeThrough",
  };
}
