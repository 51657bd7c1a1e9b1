/**
 * A stored file downloaded a part per request, several at once, each part written at its offset in the output
 * file, every part of the version the manifest describes (`If-Match`).
 *
 * @module
 */
import { open, rm } from "node:fs/promises";
import { versionEtag } from "../worker/validators.ts";
import { CliError } from "./cli-error.ts";
import type { WorkerClient } from "./worker-client.ts";

/** Options of {@linkcode downloadParts}. */
export interface PartsDownloadOptions {
  /** Most parts fetched at once. */
  parallel: number;
  /** Told the total bytes written so far, after each chunk. */
  onBytes?: (bytes: number) => void;
  /** Told the file's size once the manifest is read. */
  onSize?: (bytes: number) => void;
}

/**
 * Writes the content of the stored file `name` to `output`, `options.parallel` parts at a time; resolves the bytes
 * written. When a part fails (the file was replaced meanwhile, say), the parts under way finish, no new one starts,
 * `output` is removed and the first failure is thrown.
 *
 * @example
 * ```ts
 * import type { WorkerClient } from "./worker-client.ts";
 * declare const client: WorkerClient;
 * const bytes = await downloadParts(client, "primes", "primes.txt", { parallel: 4 });
 * ```
 */
export async function downloadParts(
  client: WorkerClient,
  name: string,
  output: string,
  options: PartsDownloadOptions,
): Promise<number> {
  const manifest = await client.manifest(name);
  const etag = versionEtag(manifest);
  const offsets: number[] = [];
  let total = 0;
  for (const part of manifest.parts) {
    offsets.push(total);
    total += part.bytes;
  }
  options.onSize?.(total);
  const handle = await open(output, "w").catch((error: unknown) => {
    throw new CliError(`Cannot write "${output}": ${error instanceof Error ? error.message : String(error)}`, {
      code: "cannot-write",
      cause: error,
    });
  });
  let written = 0;
  let next = 0;
  let failure: { error: unknown } | undefined;
  const fetchParts = async () => {
    while (failure === undefined && next < manifest.parts.length) {
      const index = next++;
      let position = offsets[index]!;
      try {
        for await (const chunk of await client.part(name, index, etag)) {
          await handle.write(chunk, 0, chunk.byteLength, position);
          position += chunk.byteLength;
          written += chunk.byteLength;
          options.onBytes?.(written);
        }
        const expected = manifest.parts[index]!.bytes;
        if (position - offsets[index]! !== expected) {
          throw new CliError(
            `Cannot read part ${index} of "${name}": got ${position - offsets[index]!} of ${expected} bytes`,
          );
        }
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  try {
    await handle.truncate(total);
    await Promise.all(Array.from({ length: Math.min(options.parallel, manifest.parts.length) }, fetchParts));
  } finally {
    await handle.close();
  }
  if (failure !== undefined) {
    await rm(output, { force: true });
    throw failure.error;
  }
  return written;
}
