import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import type { Manifest } from "../files/manifest.ts";

/**
 * Pipes every part of `manifest` into `destination` in slices of `perSlice` parts, each read by the file's
 * `coordinator` (`readParts`) in an invocation of its own, then closes it: a content read of more parts than
 * the reading request may read itself. A slice that fails aborts `destination` and rejects.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import type { Manifest } from "../files/manifest.ts";
 * declare const coordinator: DurableObjectStub<FileCoordinator>;
 * declare const manifest: Manifest;
 * const { readable, writable } = new FixedLengthStream(manifest.totals.bytes);
 * const piping = pipeSlicedContent(coordinator, manifest, 48, writable);
 * ```
 */
export async function pipeSlicedContent(
  coordinator: DurableObjectStub<FileCoordinator>,
  manifest: Manifest,
  perSlice: number,
  destination: WritableStream<Uint8Array>,
): Promise<void> {
  try {
    for (let start = 0; start < manifest.parts.length; start += perSlice) {
      const slice = await coordinator.readParts(manifest.parts.slice(start, start + perSlice));
      await slice.pipeTo(destination, { preventClose: true, preventAbort: true });
    }
  } catch (error) {
    await destination.abort(error).catch(() => undefined);
    throw error;
  }
  await destination.close();
}
