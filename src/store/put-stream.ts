/**
 * Stores a byte stream of any length as one object: in one `put` when it fits one chunk, else as a multipart write
 * of equal chunks, so that memory holds one chunk at a time whatever the stream's length.
 *
 * @module
 */
import type { ReadableStream } from "../streams/engine/readable-stream.ts";
import type { MultipartWrite, ObjectStore, StoredObject, UploadedPart } from "./object-store.ts";

/** The chunk size of a multipart write: 10 MiB (R2 wants equal parts of at least 5 MiB but the last). */
export const PUT_STREAM_CHUNK_BYTES = 10 * 1024 * 1024;

/**
 * Stores `stream` under `key` in `store`, in chunks of `chunkBytes`; resolves with the stored object (an empty stream
 * stores an empty object). A failure of the stream or the store aborts the multipart write and rejects.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./memory-store.ts";
 * import { ReadableStream } from "../streams/engine/readable-stream.ts";
 * const stored = await putStream(new MemoryStore(), "a/piece", ReadableStream.from<Uint8Array>([new Uint8Array(3)]));
 * stored.size; // 3
 * ```
 */
export async function putStream(
  store: ObjectStore,
  key: string,
  stream: ReadableStream<Uint8Array>,
  chunkBytes = PUT_STREAM_CHUNK_BYTES,
): Promise<StoredObject> {
  let chunk = new Uint8Array(chunkBytes);
  let filled = 0;
  let multipart: MultipartWrite | undefined;
  const parts: UploadedPart[] = [];
  let size = 0;
  try {
    for await (const bytes of stream) {
      let at = 0;
      while (at < bytes.byteLength) {
        const taken = Math.min(bytes.byteLength - at, chunkBytes - filled);
        chunk.set(bytes.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled === chunkBytes) {
          multipart ??= await store.createMultipartWrite(key);
          parts.push(await multipart.uploadPart(parts.length + 1, chunk));
          size += filled;
          chunk = new Uint8Array(chunkBytes);
          filled = 0;
        }
      }
    }
    if (multipart === undefined) return await store.put(key, chunk.subarray(0, filled));
    if (filled > 0) {
      parts.push(await multipart.uploadPart(parts.length + 1, chunk.subarray(0, filled)));
      size += filled;
    }
    const stored = await multipart.complete(parts);
    return { ...stored, size };
  } catch (error) {
    await multipart?.abort().catch(() => undefined);
    throw error;
  }
}
