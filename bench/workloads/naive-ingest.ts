/**
 * The naive ingest of scenario 5, written the way a first worker usually is: the body through a native
 * `TextDecoderStream`, lines by `String.prototype.split`, and one `await writer.write(number)` per number into a
 * native `WritableStream` that encodes each number with `String()` and rotates into newline-aligned parts of
 * at most `maxPartBytes`, storing every full part before it goes on.
 *
 * @module
 */
import type { ObjectStore } from "../../src/store/object-store.ts";

/** What {@linkcode naiveIngest} wrote. */
export interface NaiveIngestResult {
  /** Numbers written. */
  numbers: number;
  /** Bytes written over all parts. */
  bytes: number;
  /** Part keys, in order. */
  parts: string[];
}

/**
 * Stores the numbers of `body` (newline-separated decimal integers) as parts `<prefix>part-<index>` of `store`.
 *
 * @example
 * ```ts
 * const result = await naiveIngest(request.body!, new R2Store(env.BUCKET), "naive/1/", 10 << 20);
 * ```
 */
export async function naiveIngest(
  body: ReadableStream<Uint8Array>,
  store: ObjectStore,
  prefix: string,
  maxPartBytes: number,
): Promise<NaiveIngestResult> {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let part = new Uint8Array(maxPartBytes);
  let used = 0;
  let numbers = 0;
  let bytes = 0;
  const storePart = async (): Promise<void> => {
    const key = `${prefix}part-${String(parts.length).padStart(8, "0")}`;
    parts.push(key);
    await store.put(key, part.subarray(0, used));
    part = new Uint8Array(maxPartBytes);
    used = 0;
  };
  const sink = new WritableStream<number>({
    async write(value) {
      const line = encoder.encode(`${String(value)}\n`);
      if (used + line.length > maxPartBytes) await storePart();
      part.set(line, used);
      used += line.length;
      numbers += 1;
      bytes += line.length;
    },
    async close() {
      if (used > 0) await storePart();
    },
  });
  const writer = sink.getWriter();
  let rest = "";
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  for await (const text of body.pipeThrough(decoder)) {
    const lines = (rest + text).split("\n");
    rest = lines.pop()!;
    for (const line of lines) if (line !== "") await writer.write(Number(line));
  }
  if (rest !== "") await writer.write(Number(rest));
  await writer.close();
  return { numbers, bytes, parts };
}
