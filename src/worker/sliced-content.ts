import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { PartSlice } from "../files/part-slices.ts";

/**
 * Pipes `slices` (of parts of one version, in content order) into `destination`, `perCall` of them per call to
 * the file's `coordinator` (`readParts`), each an invocation of its own, then closes it: a read of more parts than
 * the reading request may read itself. A call that fails, or `signal` aborting, aborts `destination` and rejects.
 * `started` is called once the first call answered, before any byte reaches `destination`.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import type { Manifest } from "../files/manifest.ts";
 * import { wholeParts } from "../files/part-slices.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const manifest: Manifest;
 * const { readable, writable } = new FixedLengthStream(manifest.totals.bytes);
 * const piping = pipeSlicedContent(coordinator, wholeParts(manifest.parts), 48, writable);
 * ```
 */
export async function pipeSlicedContent(
  coordinator: DurableObjectStub<FileCoordinator>,
  slices: readonly PartSlice[],
  perCall: number,
  destination: WritableStream<Uint8Array>,
  signal?: AbortSignal,
  started?: () => void,
): Promise<void> {
  try {
    for (let start = 0; start < slices.length; start += perCall) {
      signal?.throwIfAborted();
      const bytes = await coordinator.readParts(slices.slice(start, start + perCall));
      started?.();
      await bytes.pipeTo(destination, { preventClose: true, preventAbort: true, ...(signal ? { signal } : {}) });
    }
  } catch (error) {
    await destination.abort(error).catch(() => undefined);
    throw error;
  }
  await destination.close();
}
