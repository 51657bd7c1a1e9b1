import { CHUNK_RUN, LineRuns, NUMBER_RUN } from "../numbers/line-runs.ts";
import { NumberParser, type ParseStats } from "../numbers/number-parser.ts";
import { WritableStream } from "../streams/engine/writable-stream.ts";
import type { PartRecord, PartSplitter } from "./part-splitter.ts";
import { splitterEnding } from "./splitter-ending.ts";

/** Default queue size of a {@linkcode SplitLinesWritableStream}, in byte chunks. */
export const DEFAULT_SPLIT_LINES_HIGH_WATER_MARK = 4;

/** Options of a {@linkcode SplitLinesWritableStream}. */
export interface SplitLinesOptions {
  /** Called with every chunk once its lines are in the parts; the stream keeps no reference to it. */
  releaseChunk?: ((chunk: Uint8Array) => void) | undefined;
  /** Chunks queued before backpressure (default {@linkcode DEFAULT_SPLIT_LINES_HIGH_WATER_MARK}). */
  highWaterMark?: number | undefined;
}

/**
 * A drainpipe `WritableStream` of bytes (newline-separated decimal integers, the grammar of `NumberParser`) that
 * stores their lines into a {@linkcode PartSplitter}: the canonical pass-through. Lines already in canonical form
 * are validated and copied into the parts as they are; the other valid ones are written in canonical form from their
 * bytes, and only a line that needs the parser's state is parsed and encoded again. The parts hold
 * the same bytes as parsing every line and writing its number would give, for every input, with the same errors.
 * Chunks queued together reach the parser in one `writev` batch; closing stores the last part and resolves
 * {@linkcode parts}; aborting aborts the splitter.
 *
 * @example
 * ```ts
 * declare const body: ReadableStream<Uint8Array>;
 * const store = new MemoryStore();
 * const splitter = new PartSplitter({ store, name: "primes", uploadId: newUploadId(), maxPartBytes: 1 << 20 });
 * const sink = new SplitLinesWritableStream(splitter);
 * await body.pipeTo(sink);
 * const parts = await sink.parts;
 * sink.stats.canonical; // whether the input was canonical throughout
 * ```
 */
export class SplitLinesWritableStream extends WritableStream<Uint8Array> {
  /** The stored parts, once the stream has closed. */
  readonly parts: Promise<PartRecord[]>;
  readonly #parser: NumberParser;

  /** Wraps `splitter`; the stream owns it from now on. */
  constructor(splitter: PartSplitter, options: SplitLinesOptions = {}) {
    const parser = new NumberParser();
    const runs = new LineRuns();
    // Runs of canonical lines come with their order and where the splitter's indexed lines start: no scan of its own.
    runs.markEvery = splitter.lineIndexEvery;
    const { releaseChunk } = options;
    const ending = splitterEnding(splitter, async () => {
      const last = parser.end();
      if (last.length > 0) await splitter.write(last);
    });
    /** Parses and writes `chunks[from..]` in order; waits where the splitter asks. */
    const writeChunks = (chunks: readonly Uint8Array[], from: number): Promise<void> | undefined => {
      for (let i = from; i < chunks.length; i++) {
        const chunk = chunks[i]!;
        runs.order = splitter.sorted;
        parser.pushLines(chunk, runs);
        const wait = writeRuns(splitter, runs, chunk, 0);
        if (wait) {
          return wait.then(() => {
            releaseChunk?.(chunk);
            return writeChunks(chunks, i + 1);
          });
        }
        releaseChunk?.(chunk);
      }
      return undefined;
    };
    super(
      {
        write: (chunk) => writeChunks([chunk], 0),
        writev: (chunks) => writeChunks(chunks, 0),
        close: ending.close,
        abort: ending.abort,
      },
      { highWaterMark: options.highWaterMark ?? DEFAULT_SPLIT_LINES_HIGH_WATER_MARK },
    );
    this.parts = ending.parts;
    this.#parser = parser;
  }

  /** What the stream has parsed so far (see `ParseStats`). */
  get stats(): ParseStats {
    return this.#parser.stats;
  }
}

/** Writes the runs from `k` on into `splitter`, each from where its kind says (see `LineRuns`). */
function writeRuns(splitter: PartSplitter, runs: LineRuns, chunk: Uint8Array, k: number): Promise<void> | undefined {
  for (let run = k; run < runs.count; run++) {
    const start = runs.start(run);
    const end = runs.end(run);
    const kind = runs.kind(run);
    const wait =
      kind === NUMBER_RUN
        ? splitter.write(runs.numbers.subarray(start, end))
        : kind === CHUNK_RUN
          ? splitter.writeLines(chunk.subarray(start, end), runs.lines(run), runs.sorted(run), runs.marksOf(run))
          : splitter.writeLines(runs.bytes.subarray(start, end), runs.lines(run), runs.sorted(run), runs.marksOf(run));
    if (wait) return wait.then(() => writeRuns(splitter, runs, chunk, run + 1));
  }
  return undefined;
}
