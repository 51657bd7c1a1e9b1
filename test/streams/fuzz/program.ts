/**
 * The programs of the differential fuzzer: what streams a program builds (underlying sources, sinks and
 * transformers, each a script of what its callbacks do, call by call) and the public operations it then performs on
 * them. Plain data, so that fast-check can generate, shrink and print them.
 * @module
 */

/**
 * How a callback completes: at once, or on a later microtask through a thenable (never a native promise: Node
 * reacts to a returned native promise directly, where WebIDL adopts it into a new one two jobs later; see
 * `deviations.ts`), or by throwing or rejecting.
 */
export type Completion = "sync" | "later" | "throw" | "rejectLater";

/** What one call of a source's `pull` (or its `start`) does before completing. */
export type PullAction =
  | "nothing"
  | "enqueue"
  | "enqueue2"
  | "close"
  | "enqueueClose"
  | "error"
  | "enqueueError"
  | "respond"
  | "respondWithNewView";

/** One call of a callback: what it does, and how it completes. */
export interface CallStep<A extends string> {
  /** What the call does. */
  action: A;
  /** Whether the action runs inside the call or on a later microtask. */
  deferred: boolean;
  /** How the call completes. */
  completion: Completion;
}

/** An underlying source: default or byte, with scripts for `start`, each `pull` call and `cancel`. */
export interface SourceSpec {
  /** `"bytes"` for a byte stream. */
  type: "default" | "bytes";
  /** The high-water mark. */
  highWaterMark: number;
  /** A byte stream's `autoAllocateChunkSize`, or 0 for none. */
  autoAllocateChunkSize: number;
  /** What `start` does. */
  start: CallStep<PullAction>;
  /** What each call of `pull` does, in order; later calls close the stream (see `neverCloses`). */
  pulls: CallStep<PullAction>[];
  /** How `cancel` completes. */
  cancel: Completion;
  /** Calls of `pull` past the script enqueue a chunk instead of closing the stream. */
  neverCloses?: boolean;
}

/** What one call of a sink's `write` does besides completing. */
export type WriteAction = "nothing" | "error";

/** An underlying sink. */
export interface SinkSpec {
  /** The high-water mark. */
  highWaterMark: number;
  /** How `start` completes. */
  start: Completion;
  /** What each `write` call does, in order; later calls complete at once. */
  writes: CallStep<WriteAction>[];
  /** How `close` completes. */
  close: Completion;
  /** How `abort` completes. */
  abort: Completion;
  /**
   * The sink also has drainpipe's `writev`, which takes each chunk of a batch as the `write` it stands for (Node's
   * streams ignore it). Only where every `write` succeeds at once (in pipe chains): a batch then logs what the writes
   * of its chunks would.
   */
  writev?: boolean;
}

/** What one call of a transformer's `transform` (or `flush`) does. */
export type TransformAction = "nothing" | "enqueue" | "enqueue2" | "error" | "terminate" | "enqueueTerminate";

/** A transformer and its two strategies. */
export interface TransformerSpec {
  /** The writable side's high-water mark. */
  writableHighWaterMark: number;
  /** The readable side's high-water mark. */
  readableHighWaterMark: number;
  /** What each `transform` call does; later calls enqueue the chunk. */
  transforms: CallStep<TransformAction>[];
  /** What `flush` does. */
  flush: CallStep<TransformAction>;
  /** How `cancel` completes. */
  cancel: Completion;
}

/** Options of a pipe, and the operation index after which its signal aborts (-1: no signal). */
export interface PipeSpec {
  preventClose: boolean;
  preventAbort: boolean;
  preventCancel: boolean;
  /** Whether the pipe has an abort signal (aborted by an `abortSignal` operation). */
  signal: boolean;
}

/**
 * A public operation. `r`, `w` and `t` pick a readable, writable or transform stream among those the program has
 * made so far (modulo their number); `controller` operations act from outside on the controllers the callbacks saw.
 */
export type Op =
  | { op: "getReader"; r: number }
  | { op: "getBYOBReader"; r: number }
  | { op: "read"; r: number }
  | { op: "readBYOB"; r: number; size: number; min: number }
  | { op: "releaseReader"; r: number }
  | { op: "cancelReader"; r: number }
  | { op: "cancel"; r: number }
  | { op: "iteratorNext"; r: number; preventCancel: boolean }
  | { op: "iteratorReturn"; r: number }
  | { op: "forAwait"; r: number; take: number; exit: "break" | "throw" }
  | { op: "tee"; r: number }
  | { op: "pipeTo"; r: number; w: number; options: PipeSpec }
  | { op: "pipeThrough"; r: number; t: number; options: PipeSpec }
  | { op: "abortSignal"; pipe: number }
  | { op: "getWriter"; w: number }
  | { op: "write"; w: number }
  | { op: "writerClose"; w: number }
  | { op: "writerAbort"; w: number }
  | { op: "releaseWriter"; w: number }
  | { op: "close"; w: number }
  | { op: "abort"; w: number }
  | { op: "sourceEnqueue" }
  | { op: "sourceClose" }
  | { op: "sourceError" }
  | { op: "sinkError" }
  | { op: "transformEnqueue"; t: number }
  | { op: "transformTerminate"; t: number }
  | { op: "transformError"; t: number }
  | { op: "microtask" }
  | { op: "task" };

/** A whole program: the first readable (from `source`), writable and transform stream, then the operations. */
export interface Program {
  source: SourceSpec;
  sink: SinkSpec;
  transformers: TransformerSpec[];
  ops: Op[];
}

/** Whether the program pipes (its pace is then the implementation's, see `compare.ts`). */
export function usesPipe(program: Program): boolean {
  return program.ops.some((op) => op.op === "pipeTo" || op.op === "pipeThrough");
}
