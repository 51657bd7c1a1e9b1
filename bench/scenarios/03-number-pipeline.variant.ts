/**
 * One variant of scenario 3, run in a process of its own so that no call site, heap or garbage collector state is
 * shared with another variant (the native-streams variant alone makes tens of millions of promises per run):
 * `node bench/scenarios/03-number-pipeline.variant.ts <variant> <count> <maxPartBytes> <runs> <warmups>`. Splits the
 * first `count` primes `warmups` times untimed (the first of them still timed apart, as the cold run), then `runs`
 * times timed, each after a full garbage collection, checks every run's parts against the input byte for byte, and
 * prints one JSON line, {@linkcode VariantReport}.
 *
 * @module
 */
import { pipeline } from "node:stream/promises";
import { NumberParser } from "../../src/numbers/number-parser.ts";
import { PartSplitter } from "../../src/split/part-splitter.ts";
import { MemoryStore } from "../../src/store/memory-store.ts";
import { timed } from "../harness/stats.ts";
import { chunksOf, readObjects, sameBytes, streamOf } from "../workloads/byte-chunks.ts";
import { fusedSplit } from "../workloads/fused-split.ts";
import { splitBatch, splitPerNumber } from "../workloads/number-pipelines.ts";
import { primesText } from "../workloads/primes-file.ts";
import { collectGarbage } from "./03-number-pipeline.collect-garbage.ts";
import { LineToNumber, NumberWriter, nodeReadableOf } from "./03-number-pipeline.node-stream.ts";

/** What a variant's process prints. */
export interface VariantReport {
  /** The timed runs, ms. */
  ms: number[];
  /** The first run of the process (untimed for the medians: it includes compiling the code), ms. */
  coldMs: number;
  /** The number of parts the last run stored. */
  parts: number;
  /** Whether every run's parts, joined, equal the input. */
  identical: boolean;
  /** The input's size in bytes. */
  inputBytes: number;
}

/** How a variant's process runs it. */
export interface VariantRun {
  /** How many primes the input holds. */
  count: number;
  /** Part size limit in bytes. */
  maxPartBytes: number;
  /** Timed runs. */
  runs: number;
  /** Untimed runs before them (the first is the cold run). */
  warmups: number;
}

/** One variant: splits `chunks` into `store` and resolves the part keys in order. */
export interface Variant {
  name: string;
  description: string;
  split: (chunks: readonly Uint8Array[], store: MemoryStore, maxPartBytes: number) => Promise<string[]>;
}

function splitterFor(store: MemoryStore, uploadId: string, maxPartBytes: number): PartSplitter {
  return new PartSplitter({ store, name: "bench", uploadId, maxPartBytes });
}

/** The per-number contract on drainpipe's streams, which issue #3 wants within 1.25× of {@link BATCH}. */
export const PER_NUMBER = "per-number, drainpipe streams (LineToNumberStream)";
/** The batch contract on drainpipe's streams. */
export const BATCH = "batch, drainpipe streams (LineToNumberBatchStream)";

/** The node:stream pipeline of the Node `_writev` splitting article: the baseline of the speedups. */
export const NODE_STREAM = "node:stream (_writev splitting article)";

/** The fused loop: the floor the per-number and batch contracts are compared with, here and in workerd (scenario 7). */
export const FUSED = "fused loop (floor)";

/** The variants, in table order. */
export const VARIANTS: readonly Variant[] = [
  {
    name: "per-number, native streams",
    description:
      "the same per-number pipeline built on the runtime's own WHATWG streams (a native TransformStream around " +
      "NumberParser, a native WritableStream around PartSplitter), as src/ was before drainpipe's streams",
    async split(chunks, store, maxPartBytes) {
      const splitter = splitterFor(store, "native", maxPartBytes);
      const parser = new NumberParser();
      const one = new Float64Array(1);
      const toNumbers = new globalThis.TransformStream<Uint8Array, number>({
        transform(chunk, controller) {
          for (const value of parser.push(chunk)) controller.enqueue(value);
        },
        flush(controller) {
          for (const value of parser.end()) controller.enqueue(value);
        },
      });
      const sink = new globalThis.WritableStream<number>({
        write(value) {
          one[0] = value;
          return splitter.write(one);
        },
      });
      await streamOf(chunks, globalThis.ReadableStream<Uint8Array>)
        .pipeThrough(toNumbers)
        .pipeTo(sink);
      return (await splitter.close()).map((part) => part.key);
    },
  },
  {
    name: PER_NUMBER,
    description: "file chunks → LineToNumberStream → SplitWritableStream (drainpipe's streams, as src/ uses them)",
    split: (chunks, store, maxPartBytes) => splitPerNumber(chunks, splitterFor(store, "per-number", maxPartBytes)),
  },
  {
    name: BATCH,
    description: "file chunks → LineToNumberBatchStream → SplitWritableStream (drainpipe's streams, as src/ uses them)",
    split: (chunks, store, maxPartBytes) => splitBatch(chunks, splitterFor(store, "batch", maxPartBytes)),
  },
  {
    name: NODE_STREAM,
    description: "Readable → accumulator LineToNumber Transform → _writev NumberWriter (hwm 4096) → PartSplitter",
    async split(chunks, store, maxPartBytes) {
      const writer = new NumberWriter(splitterFor(store, "node-stream", maxPartBytes));
      await pipeline(nodeReadableOf(chunks), new LineToNumber(), writer);
      return writer.parts.map((part) => part.key);
    },
  },
  {
    name: FUSED,
    description: "one loop over the bytes: parse, re-encode into the part buffer, rotate",
    split: (chunks, store, maxPartBytes) => fusedSplit(chunks, store, "bench/fused/", maxPartBytes),
  },
];

/**
 * Runs the variant named `name` on the first `count` primes: `warmups` times untimed, then `runs` times timed.
 *
 * @throws {Error} when no variant has that name.
 */
async function runVariant(name: string, { count, maxPartBytes, runs, warmups }: VariantRun): Promise<VariantReport> {
  const variant = VARIANTS.find((candidate) => candidate.name === name);
  if (!variant) throw new Error(`Cannot run scenario 3: no variant "${name}"`);
  const input = await primesText(count);
  const chunks = chunksOf(input);
  const report: VariantReport = { ms: [], coldMs: 0, parts: 0, identical: true, inputBytes: input.length };
  for (let run = 0; run < warmups + runs; run++) {
    const store = new MemoryStore();
    collectGarbage();
    const { ms, value: keys } = await timed(() => variant.split(chunks, store, maxPartBytes));
    if (run === 0) report.coldMs = ms;
    if (run >= warmups) report.ms.push(ms);
    report.parts = keys.length;
    report.identical &&= sameBytes(await readObjects(store, keys), input);
  }
  return report;
}

if (import.meta.main) {
  const [name = "", count, maxPartBytes, runs, warmups] = process.argv.slice(2);
  const numbers = [count, maxPartBytes, runs, warmups].map(Number);
  if (!numbers.every((value) => Number.isSafeInteger(value) && value >= 1)) {
    throw new Error(
      "Cannot run scenario 3: usage: <variant> <count> <maxPartBytes> <runs> <warmups>, positive integers",
    );
  }
  const [countValue, maxPartBytesValue, runsValue, warmupsValue] = numbers as [number, number, number, number];
  const run = { count: countValue, maxPartBytes: maxPartBytesValue, runs: runsValue, warmups: warmupsValue };
  console.log(JSON.stringify(await runVariant(name, run)));
}
