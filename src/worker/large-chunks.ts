/** The read size the worker asks of request bodies: 1 MiB (workerd's default reader hands out 4 KiB). */
export const DEFAULT_READ_BYTES = 1024 * 1024;

interface MinReadOptions {
  min: number;
}

type ByobReadWithMin = (view: Uint8Array, options: MinReadOptions) => Promise<ReadableStreamReadResult<Uint8Array>>;

/**
 * Re-chunks a byte stream (such as `request.body`) into reads of `chunkBytes` bytes each (the last may be
 * shorter), using BYOB reads with `{ min }` so the runtime fills a whole buffer per read. Each chunk is a
 * fresh buffer, so downstream may keep it.
 *
 * @example
 * ```ts
 * for await (const chunk of largeChunks(request.body!)) console.log(chunk.byteLength); // 1048576, ...
 * ```
 */
export function largeChunks(body: ReadableStream<Uint8Array>, chunkBytes = DEFAULT_READ_BYTES): ReadableStream<Uint8Array> {
  const reader = body.getReader({ mode: "byob" });
  const read = reader.read.bind(reader) as unknown as ByobReadWithMin;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await read(new Uint8Array(chunkBytes), { min: chunkBytes });
      if (value && value.byteLength > 0) controller.enqueue(value);
      if (done) controller.close();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
