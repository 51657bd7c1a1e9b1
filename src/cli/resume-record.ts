/**
 * What `drainpipe get -o FILE` keeps beside `FILE` while it writes it, `FILE.drainpipe-resume`: the stored file's
 * name and the version's entity tag, so that `get --resume` can continue an interrupted download only if the
 * stored file is still that version (`If-Range`). It is removed once the download is complete.
 *
 * @module
 */
import { readFile, rm, stat, writeFile } from "node:fs/promises";

/** The download a partial output file belongs to. */
export interface ResumeRecord {
  /** The stored file's name. */
  name: string;
  /** The `ETag` of the version being written. */
  etag: string;
}

/** Where the record of a download to `output` lives. */
export function resumeRecordPath(output: string): string {
  return `${output}.drainpipe-resume`;
}

/**
 * Where a download of `name` to `output` can continue: the partial file's size and the version it holds, or `null`
 * when there is nothing to continue (no partial file, an empty one, or no record of the same name beside it).
 *
 * @example
 * ```ts
 * const point = await resumePoint("primes", "/tmp/no-such-download.txt"); // null
 * ```
 */
export async function resumePoint(name: string, output: string): Promise<{ offset: number; etag: string } | null> {
  const size = await stat(output).then(
    (info) => (info.isFile() ? info.size : 0),
    () => 0,
  );
  if (size === 0) return null;
  const record = await readFile(resumeRecordPath(output), "utf8").then(
    (text) => JSON.parse(text) as Partial<ResumeRecord>,
    () => null,
  );
  if (record?.name !== name || typeof record.etag !== "string") return null;
  return { offset: size, etag: record.etag };
}

/**
 * Records, before the first byte is written, which version a download to `output` writes.
 *
 * @example
 * ```ts
 * await writeResumeRecord("/tmp/copy.txt", { name: "primes", etag: '"mfx1-0a1b2c3d"' });
 * await removeResumeRecord("/tmp/copy.txt");
 * ```
 */
export async function writeResumeRecord(output: string, record: ResumeRecord): Promise<void> {
  await writeFile(resumeRecordPath(output), `${JSON.stringify(record)}\n`);
}

/** Removes the record of a download to `output` (it finished, or its partial file is gone). */
export async function removeResumeRecord(output: string): Promise<void> {
  await rm(resumeRecordPath(output), { force: true });
}
