/**
 * Scenario 1's work (and scenario 8's, inside a worker bundled by wrangler): moving `count` small value chunks
 * (the numbers 0 … count−1) from a pull source to a summing sink, one chunk at a time, in the common shapes of
 * stream code. Every shape returns the count and sum it saw, so a run can be checked.
 *
 * @module
 */
import type { Runtime, StreamsImplementation } from "../implementations/streams-implementation.ts";

/** What a shape saw arrive at its end. */
export interface Tally {
  /** Chunks received. */
  count: number;
  /** Sum of the chunks received. */
  sum: number;
}

/** One way of moving the chunks. */
export interface PipeShape {
  /** The name the reports use. */
  name: string;
  /** Whether the shape needs the implementation's draining extension. */
  extension: boolean;
  /**
   * For an extension shape: the standard shape native streams run in its place, as the baseline of its
   * ratios (native has no draining extension).
   */
  standIn?: string;
  /** Moves `count` chunks with `implementation`'s streams. */
  run(implementation: StreamsImplementation, count: number): Promise<Tally>;
}

/** A source that enqueues one number per pull (the default high-water mark of 1). */
function numbers(implementation: StreamsImplementation, count: number): ReadableStream<number> {
  let next = 0;
  return new implementation.ReadableStream<number>({
    pull(controller) {
      controller.enqueue(next++);
      if (next === count) controller.close();
    },
  });
}

/** A sink that adds up what it receives. */
function summing(implementation: StreamsImplementation, tally: Tally): WritableStream<number> {
  return new implementation.WritableStream<number>({
    write(chunk) {
      tally.count += 1;
      tally.sum += chunk;
    },
  });
}

function add(tally: Tally, value: number): void {
  tally.count += 1;
  tally.sum += value;
}

/** The shapes, in report order. */
export const PIPE_SHAPES: readonly PipeShape[] = [
  {
    name: "pipeTo",
    extension: false,
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      await numbers(implementation, count).pipeTo(summing(implementation, tally));
      return tally;
    },
  },
  {
    name: "reader loop",
    extension: false,
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      const reader = numbers(implementation, count).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return tally;
        add(tally, value);
      }
    },
  },
  {
    name: "TransformStream + pipeTo",
    extension: false,
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      const identity = new implementation.TransformStream<number, number>({
        transform(chunk, controller) {
          controller.enqueue(chunk);
        },
      });
      await numbers(implementation, count).pipeThrough(identity).pipeTo(summing(implementation, tally));
      return tally;
    },
  },
  {
    name: "for await",
    extension: false,
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      for await (const value of numbers(implementation, count) as ReadableStream<number> & AsyncIterable<number>)
        add(tally, value);
      return tally;
    },
  },
  {
    name: "readMany loop",
    extension: true,
    standIn: "reader loop",
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      const reader = numbers(implementation, count).getReader();
      for (;;) {
        const { done, value } = await implementation.extension!.readMany(reader);
        for (const chunk of value) add(tally, chunk as number);
        if (done) return tally;
      }
    },
  },
  {
    name: "pipeTo into a writev sink",
    extension: true,
    standIn: "pipeTo",
    async run(implementation, count) {
      const tally = { count: 0, sum: 0 };
      const sink = {
        write(chunk: number) {
          add(tally, chunk);
        },
        writev(chunks: number[]) {
          for (const chunk of chunks) add(tally, chunk);
        },
      };
      // Room for a batch, as the README's writev example has: a sink that asks for one chunk at a time (the default
      // high-water mark, 1) is handed one at a time, so its writev would never see a batch.
      const strategy = { highWaterMark: 1024 };
      await numbers(implementation, count).pipeTo(new implementation.WritableStream<number>(sink, strategy));
      return tally;
    },
  },
];

/** The shapes `implementation` can run. */
export function shapesFor(implementation: StreamsImplementation): PipeShape[] {
  return PIPE_SHAPES.filter((shape) => !shape.extension || implementation.extension !== undefined);
}

/** One benchmark of a shape's comparison: an implementation and the shape it runs. */
export interface ShapeEntry {
  /** Whose streams the benchmark moves the chunks with. */
  implementation: StreamsImplementation;
  /** The shape it runs: `shape` itself, or for native in an extension shape's comparison, its stand-in. */
  runs: PipeShape;
}

/**
 * What the comparison of `shape` runs: every implementation that can run it, and for an extension shape
 * also native running the stand-in shape (listed first, as the baseline).
 */
export function shapeEntries(
  shape: PipeShape,
  implementations: readonly StreamsImplementation[],
  nativeName: string,
): ShapeEntry[] {
  const entries: ShapeEntry[] = implementations
    .filter((implementation) => shapesFor(implementation).includes(shape))
    .map((implementation) => ({ implementation, runs: shape }));
  const standIn = PIPE_SHAPES.find((candidate) => candidate.name === shape.standIn);
  const native = implementations.find((implementation) => implementation.name === nativeName);
  if (standIn && native && !entries.some((entry) => entry.implementation === native))
    entries.unshift({ implementation: native, runs: standIn });
  return entries;
}

/** The tally a run of `count` chunks must produce. */
export function expectedTally(count: number): Tally {
  return { count, sum: (count * (count - 1)) / 2 };
}

/**
 * Chunks per sample: 1,000,000 in Node, Bun and Deno, 100,000 inside workerd (where every shape is several times
 * slower), 20,000 in quick mode.
 */
export function chunkCount(runtime: Runtime, quick: boolean): number {
  if (quick) return 20_000;
  return runtime === "workerd" ? 100_000 : 1_000_000;
}

/** How many runs of each benchmark are timed (`samples`, the median is reported) after `warmups` untimed ones. */
export interface Sampling {
  /** Timed runs. */
  samples: number;
  /** Untimed runs before them. */
  warmups: number;
}

/**
 * The sampling of every benchmark of scenario 1: 5 samples after 1 warm-up (3 left one row of a run at half the
 * speed of the next row running the same code), or 1 after 1 in quick mode.
 */
export function sampling(quick: boolean): Sampling {
  return { samples: quick ? 1 : 5, warmups: 1 };
}
