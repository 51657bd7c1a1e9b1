/**
 * `drainpipe primes <count> [-o file]`: the first N primes, one per line, streamed to a file or stdout.
 *
 * @module
 */
import type { Command } from "commander";
import { MAX_PRIME_COUNT } from "../../numbers/prime-batches.ts";
import { primeTextStream } from "../../numbers/prime-text-stream.ts";
import { formatBytes, formatCount, formatSeconds, roundSeconds, secondsSince } from "../format.ts";
import { READ_CHUNK_BYTES, writeStream } from "../local-file.ts";
import { printLines } from "../output.ts";
import { addProgressOptions, progressEnabled, startProgress } from "../progress.ts";
import { countArgument } from "../quantity.ts";

/** What {@linkcode writePrimes} wrote. */
export interface PrimesResult {
  /** How many primes. */
  count: number;
  /** Bytes of text written. */
  bytes: number;
  /** Seconds it took. */
  seconds: number;
}

/**
 * Writes the first `count` primes as text, one per line, to `output` (stdout when undefined), generating
 * them as the output drains so memory stays bounded.
 *
 * @example
 * ```ts
 * declare const path: string; // where to write, say "primes.txt"
 * const { bytes } = await writePrimes(1_000_000, path, { progress: false }); // 8,245,905 bytes
 * ```
 */
export async function writePrimes(
  count: number,
  output: string | undefined,
  options: { progress: boolean },
): Promise<PrimesResult> {
  const start = performance.now();
  const progress = startProgress({ label: "primes", total: count, unit: "primes", enabled: options.progress });
  let bytes = 0;
  let lines = 0;
  const counted = primeTextStream(count, { chunkBytes: READ_CHUNK_BYTES }).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        bytes += chunk.byteLength;
        for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
        progress.update(lines);
        controller.enqueue(chunk);
      },
    }),
  );
  try {
    await writeStream(counted, output);
  } finally {
    progress.stop();
  }
  return { count, bytes, seconds: roundSeconds(secondsSince(start)) };
}

/** Registers `primes` on `program`. */
export function registerPrimes(program: Command): void {
  addProgressOptions(
    program
      .command("primes")
      .description("write the first <count> primes, one per line, to a file or stdout")
      .argument(
        "<count>",
        `how many primes (0 to ${formatCount(MAX_PRIME_COUNT)}; 1e6 and 1_000_000 work too)`,
        countArgument("count", 0, MAX_PRIME_COUNT),
      )
      .option("-o, --output <file>", "write to this file instead of stdout"),
  ).action(async (count: number, options: { output?: string; progress?: boolean }) => {
    const result = await writePrimes(count, options.output, { progress: progressEnabled(options.progress) });
    if (options.output !== undefined) {
      printLines([
        `wrote the first ${formatCount(count)} primes (${formatBytes(result.bytes)}) to ${options.output} ` +
          `in ${formatSeconds(result.seconds)}`,
      ]);
    }
  });
}
