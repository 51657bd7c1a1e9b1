/**
 * fast-check arbitraries for the differential tests' programs (see `program.ts`).
 * @module
 */

import fc from "fast-check";
import {
  type BatchProgram,
  type BatchSinkSpec,
  type Mode,
  type Op,
  type PipeSpec,
  type Program,
  type SinkSpec,
  type SourceSpec,
  type Step,
  type StrategySpec,
  type Target,
  type Topology,
  type TransformerSpec,
  topologyParts,
} from "./program.ts";

/**
 * What a property's programs may do. `timing`: microtask ticks and macrotasks between operations, and callbacks
 * completing a few microtasks later; without it, callbacks complete at once or when a `settle` operation says,
 * for the comparisons at rest. `failures`: errors, cancels, aborts, `terminate()` and strategies whose size
 * function fails. `sinkSettles`: the sink's callbacks can be deferred.
 */
export interface Flavour {
  timing: boolean;
  failures: boolean;
  sinkSettles: boolean;
}

export const hwmArb = fc.constantFrom(0, 1, 3);

/** Mostly false. */
export const rarely = fc.oneof(
  { arbitrary: fc.constant(false), weight: 8 },
  { arbitrary: fc.constant(true), weight: 1 },
);

/**
 * How callbacks complete. Comparisons at rest avoid completions a few microtasks later: they would race with a pipe,
 * whose pace is up to the implementation.
 */
export function modeArb(flavour: Flavour): fc.Arbitrary<Mode> {
  const later: Mode[] = flavour.timing ? ["resolved", "async", "deferred"] : ["deferred"];
  const arbs: fc.WeightedArbitrary<Mode>[] = [
    { arbitrary: fc.constant<Mode>("sync"), weight: 4 },
    { arbitrary: fc.constantFrom(...later), weight: 3 },
  ];
  if (flavour.timing && flavour.failures) arbs.push({ arbitrary: fc.constantFrom<Mode>("throw", "reject"), weight: 1 });
  return fc.oneof(...arbs);
}

export function strategyArb(flavour: Flavour): fc.Arbitrary<StrategySpec> {
  const sizes = flavour.failures ? (["mod3", "bad"] as const) : (["mod3"] as const);
  return fc.oneof(
    { arbitrary: fc.constant<StrategySpec>({ kind: "default" }), weight: 3 },
    { arbitrary: fc.record({ kind: fc.constant("object" as const), hwm: hwmArb }), weight: 2 },
    { arbitrary: fc.record({ kind: fc.constant("count" as const), hwm: hwmArb }), weight: 2 },
    {
      arbitrary: fc.record({ kind: fc.constant("size" as const), hwm: hwmArb, size: fc.constantFrom(...sizes) }),
      weight: 1,
    },
    { arbitrary: fc.record({ kind: fc.constant("bytes" as const), hwm: hwmArb }), weight: 1 },
  );
}

/** The underlying source, sink and transformer arbitraries. */
export function partsArb(flavour: Flavour): {
  source: fc.Arbitrary<SourceSpec>;
  sink: fc.Arbitrary<SinkSpec>;
  transformer: fc.Arbitrary<TransformerSpec>;
} {
  const modes = modeArb(flavour);
  const strategy = strategyArb(flavour);
  const failing = flavour.failures ? rarely : fc.constant(false);
  // At rest every `pull` enqueues: whether a pull that enqueues nothing is followed by another depends on when
  // the pipe's read arrives (during the pull or after it), which is the implementation's choice.
  const step = (minEnqueue: number, end: fc.Arbitrary<boolean>): fc.Arbitrary<Step> =>
    fc.record({
      enqueue: fc.integer({ min: minEnqueue, max: 3 }),
      late: fc.integer({ min: 0, max: 2 }),
      mode: modes,
      end,
      error: failing,
    });
  return {
    source: fc.record({
      strategy,
      start: fc.record({ enqueue: fc.integer({ min: 0, max: 4 }), close: rarely, mode: modes }),
      pull: fc.option(fc.array(step(flavour.timing ? 0 : 1, rarely), { minLength: 1, maxLength: 3 }), { freq: 4 }),
      pulls: fc.integer({ min: 1, max: 12 }),
      cancel: fc.option(modes, { freq: 3 }),
    }),
    sink: fc.record({
      strategy,
      start: modes,
      write: fc.array(fc.record({ mode: modes, error: failing }), { minLength: 1, maxLength: 3 }),
      close: modes,
      abort: fc.option(modes, { freq: 3 }),
    }),
    transformer: fc.record({
      writableStrategy: strategy,
      readableStrategy: strategy,
      start: fc.record({ enqueue: fc.integer({ min: 0, max: 2 }), mode: modes }),
      transform: fc.option(fc.array(step(0, failing), { minLength: 1, maxLength: 3 }), { freq: 5 }),
      flush: fc.option(fc.record({ enqueue: fc.integer({ min: 0, max: 2 }), mode: modes }), { freq: 3 }),
      cancel: fc.option(modes, { freq: 3 }),
    }),
  };
}

export const pipeArb: fc.Arbitrary<PipeSpec> = fc.record({
  preventClose: rarely,
  preventAbort: rarely,
  preventCancel: rarely,
  signal: fc.boolean(),
});

/** The operations that act on something in `topology`. */
export function opArb(topology: Topology, flavour: Flavour): fc.Arbitrary<Op> {
  const parts = topologyParts(topology);
  const { timing, failures } = flavour;
  const reads = topology === "readable" || topology === "transform" || topology === "pipeThrough";
  const writes = topology === "writable" || topology === "transform" || topology === "writeThrough";
  const piped =
    topology === "pipeTo" || topology === "pipeThrough" || topology === "chain" || topology === "writeThrough";
  const targets: Target[] = [];
  if (parts.source) targets.push("start", "pull", "cancel");
  if (parts.sink && flavour.sinkSettles) targets.push("wstart", "write", "close", "abort");
  if (parts.transform) targets.push("tstart", "transform", "flush", "tcancel");
  const arbs: fc.WeightedArbitrary<Op>[] = [];
  if (timing) {
    arbs.push(
      { arbitrary: fc.record({ op: fc.constant("ticks" as const), count: fc.integer({ min: 0, max: 6 }) }), weight: 4 },
      { arbitrary: fc.constant<Op>({ op: "macrotask" }), weight: 1 },
    );
  }
  if (targets.length > 0) {
    const ok = failures ? fc.boolean() : fc.constant(true);
    arbs.push({
      arbitrary: fc.record({ op: fc.constant("settle" as const), target: fc.constantFrom(...targets), ok }),
      weight: 3,
    });
  }
  if (parts.source) {
    arbs.push(
      {
        arbitrary: fc.record({
          op: fc.constant("enqueue" as const),
          count: fc.integer({ min: 1, max: 8 }),
          observe: fc.boolean(),
        }),
        weight: 5,
      },
      { arbitrary: fc.constant<Op>({ op: "close" }), weight: 1 },
    );
    if (failures) arbs.push({ arbitrary: fc.constant<Op>({ op: "error" }), weight: 1 });
  }
  if (parts.transform) {
    arbs.push({
      arbitrary: fc.record({ op: fc.constant("tEnqueue" as const), count: fc.integer({ min: 1, max: 6 }) }),
      weight: 2,
    });
    if (failures) arbs.push({ arbitrary: fc.constantFrom<Op>({ op: "terminate" }, { op: "tError" }), weight: 1 });
  }
  if (parts.sink && failures) arbs.push({ arbitrary: fc.constant<Op>({ op: "wError" }), weight: 1 });
  if (reads) {
    arbs.push(
      { arbitrary: fc.record({ op: fc.constant("read" as const), count: fc.integer({ min: 1, max: 3 }) }), weight: 5 },
      { arbitrary: fc.record({ op: fc.constant("getReader" as const), observeClosed: fc.boolean() }), weight: 1 },
      { arbitrary: fc.constant<Op>({ op: "releaseReader" }), weight: 1 },
    );
    if (failures)
      arbs.push({ arbitrary: fc.record({ op: fc.constant("cancel" as const), viaReader: fc.boolean() }), weight: 1 });
  }
  if (writes) {
    arbs.push(
      {
        arbitrary: fc.record({
          op: fc.constant("write" as const),
          count: fc.integer({ min: 1, max: 5 }),
          ready: fc.boolean(),
        }),
        weight: 5,
      },
      { arbitrary: fc.record({ op: fc.constant("getWriter" as const), observeClosed: fc.boolean() }), weight: 1 },
      {
        arbitrary: fc.constantFrom<Op>({ op: "writerClose" }, { op: "releaseWriter" }, { op: "streamClose" }),
        weight: 1,
      },
    );
    // Node 24 runs TransformStreamDefaultSinkAbortAlgorithm as an `async` function: the abort promise, and the
    // writer's close and closed promises behind it, settle two microtasks after the specification's
    // [[finishPromise]]. Only a plain writable stream is aborted by the programs.
    if (topology === "writable" && failures) {
      arbs.push({ arbitrary: fc.constantFrom<Op>({ op: "writerAbort" }, { op: "streamAbort" }), weight: 1 });
    }
  }
  if (piped && failures)
    arbs.push({ arbitrary: fc.record({ op: fc.constant("signal" as const), withReason: fc.boolean() }), weight: 1 });
  return fc.oneof(...arbs);
}

/** Programs over one of `topologies`. */
export function programArb(topologies: Topology[], flavour: Flavour): fc.Arbitrary<Program> {
  const parts = partsArb(flavour);
  return fc.constantFrom(...topologies).chain((topology) =>
    fc.record({
      topology: fc.constant(topology),
      source: parts.source,
      sink: parts.sink,
      transformer: parts.transformer,
      pipe: pipeArb,
      ops: fc.array(opArb(topology, flavour), { maxLength: 20 }),
    }),
  );
}

/** A sink for the `writev` comparison: writes always succeed (see {@link BatchSinkSpec}). */
export const batchSinkArb: fc.Arbitrary<BatchSinkSpec> = fc.record({
  strategy: strategyArb({ timing: false, failures: false, sinkSettles: false }),
  start: fc.constantFrom<Mode>("sync", "resolved"),
  write: fc.constantFrom<Mode>("sync", "resolved", "async"),
  close: fc.constantFrom<Mode>("sync", "resolved", "reject"),
  abort: fc.option(fc.constantFrom<Mode>("sync", "resolved", "reject"), { freq: 2 }),
  withWrite: fc.boolean(),
});

/**
 * Programs of the `writev` property, compared at rest. Failures only where no pipe races with them: a writer
 * aborting or erroring the sink while it is idle.
 */
export const batchProgramArb: fc.Arbitrary<BatchProgram> = fc
  .constantFrom<Topology>("writable", "pipeTo", "chain")
  .chain((topology) => {
    const flavour: Flavour = { timing: false, failures: topology === "writable", sinkSettles: false };
    const parts = partsArb(flavour);
    return fc.record({
      topology: fc.constant(topology),
      source: parts.source,
      sink: batchSinkArb,
      transformer: parts.transformer,
      pipe: pipeArb,
      ops: fc.array(opArb(topology, flavour), { maxLength: 16 }),
    });
  });
