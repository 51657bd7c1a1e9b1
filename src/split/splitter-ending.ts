import type { PartRecord, PartSplitter } from "./part-splitter.ts";

/** The close and abort of a sink that writes into a `PartSplitter`, and the parts they settle. */
export interface SplitterEnding {
  /** The stored parts, once `close` has stored the last one; rejects when closing fails or the sink aborts. */
  parts: Promise<PartRecord[]>;
  /** Runs `flush`, then closes the splitter (storing the last part) and resolves `parts`. */
  close(): Promise<void>;
  /** Rejects `parts` with `reason` and aborts the splitter. */
  abort(reason: unknown): Promise<void>;
}

/**
 * The end of a sink over `splitter`, shared by the split writable streams: `flush` writes what the sink still
 * holds (a parser's last line, say) before the splitter closes.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/memory-store.ts";
 * import { newUploadId } from "./object-keys.ts";
 * import { PartSplitter } from "./part-splitter.ts";
 * const store = new MemoryStore();
 * const splitter = new PartSplitter({ store, name: "n", uploadId: newUploadId(), maxPartBytes: 1024 });
 * const ending = splitterEnding(splitter);
 * await splitter.write([1, 2, 3]);
 * await ending.close();
 * (await ending.parts).length; // 1
 * ```
 */
export function splitterEnding(splitter: PartSplitter, flush?: () => Promise<void> | void): SplitterEnding {
  let settle!: { resolve: (parts: PartRecord[]) => void; reject: (reason: unknown) => void };
  const parts = new Promise<PartRecord[]>((resolve, reject) => {
    settle = { resolve, reject };
  });
  parts.catch(() => undefined);
  return {
    parts,
    async close() {
      try {
        await flush?.();
        settle.resolve(await splitter.close());
      } catch (error) {
        settle.reject(error);
        throw error;
      }
    },
    async abort(reason) {
      settle.reject(reason);
      await splitter.abort();
    },
  };
}
