/**
 * fast-check arbitraries for fuzzer {@link Program}s. Small numbers everywhere: short scripts and few operations
 * find the interleavings that matter and shrink to readable counterexamples.
 * @module
 */

import fc from "fast-check";
import {
  type CallStep,
  type Completion,
  type Op,
  type PipeSpec,
  type Program,
  type PullAction,
  type SinkSpec,
  type SourceSpec,
  type TransformAction,
  type TransformerSpec,
  usesPipe,
  type WriteAction,
} from "./program.ts";

const index = fc.nat(5);
const hwm = fc.constantFrom(0, 1, 2);

const completion: fc.Arbitrary<Completion> = fc.oneof(
  { arbitrary: fc.constant<Completion>("sync"), weight: 4 },
  { arbitrary: fc.constant<Completion>("later"), weight: 3 },
  { arbitrary: fc.constant<Completion>("throw"), weight: 1 },
  { arbitrary: fc.constant<Completion>("rejectLater"), weight: 1 },
);

function step<A extends string>(action: fc.Arbitrary<A>): fc.Arbitrary<CallStep<A>> {
  return fc.record({ action, deferred: fc.boolean(), completion });
}

const pullAction: fc.Arbitrary<PullAction> = fc.oneof(
  { arbitrary: fc.constant<PullAction>("enqueue"), weight: 6 },
  {
    arbitrary: fc.constantFrom<PullAction>("nothing", "enqueue2", "close", "enqueueClose", "error", "enqueueError"),
    weight: 5,
  },
  { arbitrary: fc.constantFrom<PullAction>("respond", "respondWithNewView"), weight: 2 },
);

const source: fc.Arbitrary<SourceSpec> = fc.record({
  type: fc.constantFrom<SourceSpec["type"]>("default", "bytes"),
  highWaterMark: hwm,
  autoAllocateChunkSize: fc.constantFrom(0, 0, 2),
  start: step(fc.constantFrom<PullAction>("nothing", "nothing", "enqueue", "enqueue2", "close", "error")),
  pulls: fc.array(step(pullAction), { maxLength: 5 }),
  cancel: completion,
});

const sink: fc.Arbitrary<SinkSpec> = fc.record({
  highWaterMark: hwm,
  start: completion,
  writes: fc.array(step(fc.constantFrom<WriteAction>("nothing", "nothing", "nothing", "error")), { maxLength: 4 }),
  close: completion,
  abort: completion,
});

const transformAction: fc.Arbitrary<TransformAction> = fc.oneof(
  { arbitrary: fc.constant<TransformAction>("enqueue"), weight: 6 },
  {
    arbitrary: fc.constantFrom<TransformAction>("nothing", "enqueue2", "error", "terminate", "enqueueTerminate"),
    weight: 4,
  },
);

const transformer: fc.Arbitrary<TransformerSpec> = fc.record({
  writableHighWaterMark: hwm,
  readableHighWaterMark: hwm,
  transforms: fc.array(step(transformAction), { maxLength: 4 }),
  flush: step(fc.constantFrom<TransformAction>("nothing", "enqueue", "error", "terminate")),
  cancel: completion,
});

const pipeOptions: fc.Arbitrary<PipeSpec> = fc.record({
  preventClose: fc.boolean(),
  preventAbort: fc.boolean(),
  preventCancel: fc.boolean(),
  signal: fc.boolean(),
});

const readOps: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("read" as const), r: index }), weight: 8 },
  {
    arbitrary: fc.record({
      op: fc.constant("readBYOB" as const),
      r: index,
      size: fc.integer({ min: 1, max: 3 }),
      min: fc.integer({ min: 1, max: 3 }),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ op: fc.constantFrom("getReader" as const, "getBYOBReader" as const), r: index }),
    weight: 1,
  },
  { arbitrary: fc.record({ op: fc.constant("releaseReader" as const), r: index }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constantFrom("cancelReader" as const, "cancel" as const), r: index }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant("tee" as const), r: index }), weight: 2 },
);

const iteratorOps: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("iteratorNext" as const), r: index, preventCancel: fc.boolean() }),
  fc.record({ op: fc.constant("iteratorReturn" as const), r: index }),
  fc.record({
    op: fc.constant("forAwait" as const),
    r: index,
    take: fc.integer({ min: 1, max: 3 }),
    exit: fc.constantFrom("break" as const, "throw" as const),
  }),
);

const pipeOps: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("pipeTo" as const), r: index, w: index, options: pipeOptions }), weight: 3 },
  {
    arbitrary: fc.record({ op: fc.constant("pipeThrough" as const), r: index, t: index, options: pipeOptions }),
    weight: 2,
  },
  { arbitrary: fc.record({ op: fc.constant("abortSignal" as const), pipe: index }), weight: 1 },
);

const writeOps: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("write" as const), w: index }), weight: 6 },
  {
    arbitrary: fc.record({
      op: fc.constantFrom(
        "getWriter" as const,
        "writerClose" as const,
        "writerAbort" as const,
        "releaseWriter" as const,
        "close" as const,
        "abort" as const,
      ),
      w: index,
    }),
    weight: 4,
  },
);

const outsideOps: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom("sourceEnqueue" as const, "sourceClose" as const, "sourceError" as const) }),
  fc.record({ op: fc.constant("sinkError" as const) }),
  fc.record({
    op: fc.constantFrom("transformEnqueue" as const, "transformTerminate" as const, "transformError" as const),
    t: index,
  }),
);

const timingOps: fc.Arbitrary<Op> = fc.record({ op: fc.constantFrom("microtask" as const, "task" as const) });

function synchronous<A extends string>(step: CallStep<A>): CallStep<A> {
  const completion =
    step.completion === "later" ? "sync" : step.completion === "rejectLater" ? "throw" : step.completion;
  return { action: step.action, deferred: false, completion };
}

function synchronousCompletion(completion: Completion): Completion {
  return completion === "later" ? "sync" : completion === "rejectLater" ? "throw" : completion;
}

/**
 * The program with every callback acting and completing synchronously. Node's async iterator performs its read a
 * few jobs late (see `deviations.ts`): a program that uses one keeps its callbacks synchronous, so that nothing
 * else can happen in between.
 */
function withSynchronousCallbacks(program: Program): Program {
  const { source, sink } = program;
  return {
    source: {
      ...source,
      start: synchronous(source.start),
      pulls: source.pulls.map(synchronous),
      cancel: synchronousCompletion(source.cancel),
    },
    sink: {
      ...sink,
      start: synchronousCompletion(sink.start),
      writes: sink.writes.map(synchronous),
      close: synchronousCompletion(sink.close),
      abort: synchronousCompletion(sink.abort),
    },
    transformers: program.transformers.map((transformer) => ({
      ...transformer,
      transforms: transformer.transforms.map(synchronous),
      flush: synchronous(transformer.flush),
      cancel: synchronousCompletion(transformer.cancel),
    })),
    ops: program.ops,
  };
}

const usesIterator = (program: Program): boolean =>
  program.ops.some((op) => op.op === "iteratorNext" || op.op === "iteratorReturn" || op.op === "forAwait");

/**
 * The program with a source whose `pull` always adds something (or closes or errors). Under a pipe, how often a
 * `pull` that adds nothing is called depends on the pipe's pace, which the standard leaves to the implementation:
 * drainpipe finishes a piped write that completed synchronously at once, so the pipe's next read can fall within
 * the same pull as the previous dequeue.
 */
function withProductivePulls(program: Program): Program {
  const productive = (step: CallStep<PullAction>): CallStep<PullAction> =>
    step.action === "nothing" ? { ...step, action: "enqueue" } : step;
  // With `autoAllocateChunkSize`, whether a pull finds a BYOB request (and so responds rather than enqueues)
  // depends on whether the pipe's read is waiting: its pace again.
  return {
    ...program,
    source: { ...program.source, autoAllocateChunkSize: 0, pulls: program.source.pulls.map(productive) },
  };
}

const failingPull: ReadonlySet<PullAction> = new Set(["error", "enqueueError"]);
const failingTransform: ReadonlySet<TransformAction> = new Set(["error", "terminate", "enqueueTerminate"]);

/** A step that neither fails nor errors its stream (`replacement` for a failing action). */
function succeeding<A extends string>(step: CallStep<A>, failing: ReadonlySet<A>, replacement: A): CallStep<A> {
  return {
    action: failing.has(step.action) ? replacement : step.action,
    deferred: step.deferred,
    completion: step.completion === "throw" || step.completion === "rejectLater" ? "sync" : step.completion,
  };
}

const succeeds = (completion: Completion): Completion =>
  completion === "throw" || completion === "rejectLater" ? "sync" : completion;

/**
 * The program with failures (throwing, rejecting, erroring or terminating callbacks) in its source only, or in
 * its transformers only, and a sink whose callbacks succeed (the operations can still error or abort it, at rest).
 * When two streams of a pipe fail at about the same time, or a sink fails while the source is about to close,
 * which the pipe sees first (and so its outcome) depends on its pace, which the standard leaves to the
 * implementation: drainpipe finishes a piped write that completed synchronously at once, where the reference
 * implementation reads again before its sink sees the next chunk.
 */
function withOneFailingParty(program: Program): Program {
  const { source, sink } = program;
  const sourceFails = [source.start, ...source.pulls].some(
    (step) => failingPull.has(step.action) || succeeds(step.completion) !== step.completion,
  );
  const keepSource = sourceFails;
  const keepSink = false;
  const keepTransformers = !keepSource && !keepSink;
  // A pull that throws or rejects errors the stream a job later: how many of the chunks it enqueued the pipe
  // reads first is its pace. It errors the stream at once instead.
  const erroringAtOnce = (step: CallStep<PullAction>): CallStep<PullAction> =>
    step.completion === "throw" || step.completion === "rejectLater" ? { ...step, action: "error" } : step;
  // While a transformer can fail, the source does not close: a transformer failing as the source closes races
  // the pipe's next read.
  const neverClosing = (step: CallStep<PullAction>): CallStep<PullAction> =>
    step.action === "close" || step.action === "enqueueClose" ? { ...step, action: "enqueue" } : step;
  // A pull that enqueues and then errors: whether the pipe's read was waiting for that chunk (and so whether it
  // is written) is its pace, unless nothing but a read ever pulls (a high-water mark of 0).
  const enqueuesThenErrors = [source.start, ...source.pulls].some((step) => step.action === "enqueueError");
  return {
    source: keepSource
      ? {
          ...source,
          highWaterMark: enqueuesThenErrors ? 0 : source.highWaterMark,
          start: erroringAtOnce(source.start),
          pulls: source.pulls.map(erroringAtOnce),
        }
      : {
          ...source,
          start: neverClosing(succeeding(source.start, failingPull, "enqueue")),
          pulls: source.pulls.map((step) => neverClosing(succeeding(step, failingPull, "enqueue"))),
          neverCloses: true,
          cancel: succeeds(source.cancel),
        },
    sink: keepSink
      ? sink
      : {
          ...sink,
          start: succeeds(sink.start),
          writes: sink.writes.map((step) => succeeding(step, new Set(["error" as const]), "nothing")),
          close: succeeds(sink.close),
          abort: succeeds(sink.abort),
        },
    transformers: keepTransformers
      ? program.transformers
      : program.transformers.map((transformer) => ({
          ...transformer,
          transforms: transformer.transforms.map((step) => succeeding(step, failingTransform, "enqueue")),
          flush: succeeding(transformer.flush, failingTransform, "nothing"),
          cancel: succeeds(transformer.cancel),
        })),
    // Likewise a close from outside, which lets the pipe drain the queue and then close. And a source kept open
    // (`preventCancel`) after a transformer failed holds whatever the pipe had not read yet: its pace.
    ops: keepTransformers
      ? program.ops
          .filter((op) => op.op !== "sourceClose")
          .map((op) =>
            op.op === "pipeTo" || op.op === "pipeThrough"
              ? { ...op, options: { ...op.options, preventCancel: false } }
              : op,
          )
      : program.ops,
  };
}

/**
 * The program with `preventCancel` off for pipes that follow a close of a writable stream, and readers instead of
 * async iterators. A pipe into a closed
 * destination must not read (ReadableStreamPipeTo, "closing must be propagated backward": "Assert: no chunks have
 * been read or written"), yet Node's, like the reference implementation's, reads one chunk first and drops it;
 * with `preventCancel` the source then goes on, one chunk short.
 */
function withCancelAfterClose(program: Program): Program {
  let closed = false;
  const ops = program.ops.map((op): Op => {
    // An async iterator reading a pipe's destination acts (breaks, cancels) after a number of chunks, by when the
    // pipe has moved as many more as its pace allows: such programs read with a reader instead.
    if (op.op === "iteratorNext" || op.op === "forAwait") return { op: "read", r: op.r };
    if (op.op === "iteratorReturn") return { op: "cancelReader", r: op.r };
    if (op.op === "close" || op.op === "writerClose") closed = true;
    if (closed && (op.op === "pipeTo" || op.op === "pipeThrough") && op.options.preventCancel) {
      return { ...op, options: { ...op.options, preventCancel: false } };
    }
    return op;
  });
  return { ...program, ops };
}

/** Programs: a source, a sink and up to two transformers, then up to 14 operations of every kind. */
export const programArb: fc.Arbitrary<Program> = fc
  .record({
    source,
    sink,
    transformers: fc.array(transformer, { maxLength: 2 }),
    ops: fc.array(
      fc.oneof(
        { arbitrary: readOps, weight: 6 },
        { arbitrary: iteratorOps, weight: 1 },
        { arbitrary: pipeOps, weight: 3 },
        { arbitrary: writeOps, weight: 4 },
        { arbitrary: outsideOps, weight: 2 },
        { arbitrary: timingOps, weight: 3 },
      ),
      { maxLength: 14 },
    ),
  })
  .map((program) => (usesIterator(program) || usesPipe(program) ? withSynchronousCallbacks(program) : program))
  .map((program) =>
    usesPipe(program) ? withCancelAfterClose(withOneFailingParty(withProductivePulls(program))) : program,
  );

/** A transformer for a pipe chain: mostly the default strategies (high-water marks 1 and 0), the shape users write. */
const chainTransformer: fc.Arbitrary<TransformerSpec> = fc.record({
  writableHighWaterMark: fc.constantFrom(1, 1, 1, 0, 2),
  readableHighWaterMark: fc.constantFrom(0, 0, 0, 1, 2),
  transforms: fc.array(step(transformAction), { maxLength: 4 }),
  flush: step(fc.constantFrom<TransformAction>("nothing", "enqueue", "error", "terminate")),
  cancel: completion,
});

/**
 * The step acting inside the call. A transformer acting on a later microtask (after its call returned) races the
 * pipe's next write, whose pace the standard leaves to the implementation; its completion may still come later.
 */
function actingAtOnce<A extends string>(step: CallStep<A>): CallStep<A> {
  return { ...step, deferred: false };
}

/**
 * A transform that throws or rejects errors its stream a job later: how many of the chunks it enqueued the next
 * pipe reads first is that pipe's pace. It errors the stream at once instead (as `withOneFailingParty` does for a
 * source's pulls).
 */
function erroringAtOnce(step: CallStep<TransformAction>): CallStep<TransformAction> {
  return step.completion === "throw" || step.completion === "rejectLater" ? { ...step, action: "error" } : step;
}

/** What may happen to a running chain from outside: its ends and transformers act, signals abort, time passes. */
const chainOps: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: outsideOps, weight: 3 },
  { arbitrary: fc.record({ op: fc.constant("abortSignal" as const), pipe: index }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constantFrom("cancel" as const, "read" as const), r: index }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constantFrom("abort" as const, "close" as const), w: index }), weight: 1 },
  { arbitrary: timingOps, weight: 4 },
);

/**
 * Pipe chains: a source piped through one to three transformers (`pipeThrough`, each with its own options and
 * maybe a signal) into the sink (`pipeTo`), in one operation each, then up to 8 operations from outside (errors,
 * terminations, cancels, aborts, signals, enqueues, at rest). The transformers' calls act at once but may complete on
 * a later microtask ("later"), so chains mix synchronous and asynchronous hops. Only the source or the first
 * transformer fails from inside its calls, and then every call is synchronous and no transformer queues chunks on its
 * readable side (high-water mark 0): a party failing while others keep moving chunks (further up, through
 * asynchronous hops, or out of a queue; the source never closes, see `withOneFailingParty`) lets them move as many as
 * the pipes' pace allows, which the standard leaves to the implementation. Everything else follows the pace rules of
 * other piped programs. One program in three has a sink with `writev` (in drainpipe's run), whose writes all succeed
 * at once: the chain then hands it batches of up to its high-water mark (1, 2, 4 or 16), which must reach it as
 * Node's single writes do, with every other party's calls unchanged. Those programs get a source that gives the
 * chain something to batch: a high-water mark of 2, 4 or 8 and 4 to 12 pulls that each enqueue one or two chunks and
 * succeed (about 290 multi-chunk `writev` calls, of up to 16 chunks, per 3,000 seeds; 40 before).
 */
export const chainProgramArb: fc.Arbitrary<Program> = fc
  .record({
    source,
    sink,
    transformers: fc.array(chainTransformer, { minLength: 1, maxLength: 3 }),
    options: fc.array(pipeOptions, { minLength: 4, maxLength: 4 }),
    ops: fc.array(chainOps, { maxLength: 8 }),
    batchingSink: fc.oneof(
      { arbitrary: fc.constant(null), weight: 2 },
      { arbitrary: fc.constantFrom(1, 2, 4, 16), weight: 1 },
    ),
    batchSource: fc.record({
      highWaterMark: fc.constantFrom(2, 4, 8),
      pulls: fc.array(
        fc.record({
          action: fc.constantFrom<PullAction>("enqueue", "enqueue2"),
          deferred: fc.boolean(),
          completion: fc.constantFrom<Completion>("sync", "sync", "later"),
        }),
        { minLength: 4, maxLength: 12 },
      ),
    }),
  })
  .map(({ source, sink, transformers, options, ops, batchingSink, batchSource }): Program => {
    if (batchingSink !== null) {
      sink = { ...sink, writev: true, highWaterMark: batchingSink };
      source = {
        ...source,
        highWaterMark: batchSource.highWaterMark,
        start: { action: "nothing", deferred: false, completion: "sync" },
        pulls: batchSource.pulls,
      };
    }
    const pipes: Op[] = transformers.map((_, t) => ({
      op: "pipeThrough",
      r: t,
      t,
      options: options[t] as PipeSpec,
    }));
    pipes.push({ op: "pipeTo", r: transformers.length, w: 0, options: options[transformers.length] as PipeSpec });
    return { source, sink, transformers, ops: [...pipes, ...ops] };
  })
  .map((program) => ({
    ...withSynchronousCallbacks(program),
    transformers: program.transformers.map((transformer, t) => ({
      ...transformer,
      transforms: transformer.transforms.map((step) =>
        actingAtOnce(t === 0 ? erroringAtOnce(step) : succeeding(step, failingTransform, "enqueue")),
      ),
      // A flush that enqueues and then fails: whether the next pipe's read was waiting for that chunk (and so
      // whether it is written) is that pipe's pace, as for a pull that enqueues and errors. It errors at once.
      flush: actingAtOnce(erroringAtOnce(transformer.flush)),
      cancel: t === 0 ? transformer.cancel : succeeds(transformer.cancel),
    })),
  }))
  .map((program) => withCancelAfterClose(withOneFailingParty(withProductivePulls(program))))
  .map((program) =>
    sourceFails(program) || transformersFail(program, true)
      ? {
          ...program,
          transformers: withSynchronousCallbacks(program).transformers.map((transformer) => ({
            ...transformer,
            readableHighWaterMark: 0,
          })),
        }
      : program,
  )
  .map((program) =>
    transformersFail(program, false) ? program : { ...program, source: { ...program.source, neverCloses: false } },
  );

/** Whether `program`'s source can fail from inside its calls (error, throw, reject). */
function sourceFails(program: Program): boolean {
  const { start, pulls } = program.source;
  return [start, ...pulls].some(
    (step) => failingPull.has(step.action) || succeeds(step.completion) !== step.completion,
  );
}

/**
 * Whether a transformer of `program` can fail from inside its `transform` calls, or, `withFlush`, its `flush` call.
 * Only `transform` failures need a source that stays open (`flush` only runs once it has closed); if none can fail,
 * the source that `withOneFailingParty` keeps open for them would run into its call limit, and how many chunks are
 * still queued when it does is the pipes' pace: it closes after its script instead.
 */
function transformersFail(program: Program, withFlush: boolean): boolean {
  const fails = (step: CallStep<TransformAction>): boolean =>
    failingTransform.has(step.action) || succeeds(step.completion) !== step.completion;
  return program.transformers.some(
    (transformer) => transformer.transforms.some(fails) || (withFlush && fails(transformer.flush)),
  );
}
