/**
 * How many subrequests each kind of request needs, worked out before it starts, so that a request that cannot
 * fit its budget is refused up front (`422 over-budget`, saying what to ask for instead) rather than cut short.
 *
 * @module
 */

import type { Manifest } from "../files/manifest.ts";
import { LINE_INDEX_EVERY } from "../split/line-index.ts";
import { DEFAULT_CHUNK_BYTES, MAX_PARTS, PartLimitError } from "../split/part-splitter.ts";
import type { RequestBudget } from "../store/request-budget.ts";
import { HttpError } from "./http-error.ts";

/**
 * Lease renewals a request budgets for beside its own work: one every quarter lease (15 s by default), so a
 * minute of streaming.
 */
const BUDGETED_RENEWALS = 4;

/**
 * Coordinator calls a read budgets for: `beginRead` (the only one of a read shorter than half the read grace period),
 * and for a longer read `holdRead`, `endRead` and the renewals of its lease but the first (the lease is taken half
 * a grace period in, so a read of the default settings streams 75 s on the budgeted calls, as before one minute).
 */
export const READ_CALLS = 3 + BUDGETED_RENEWALS - 1;

/**
 * Coordinator calls around an upload: `beginUpload`, `publish`, the budgeted renewals, and `abandonUpload`,
 * which is held back (reserved) for the clean-up after a failure.
 */
const UPLOAD_CALLS = 3 + BUDGETED_RENEWALS;

/** The longest line a stored file holds: 16 digits (2^53 − 1) and a line break. */
const MAX_LINE_BYTES = 17;

/** Most file summaries `GET /files` answers per page. */
const MAX_LIST_PAGE = 100;

/**
 * Subrequests that writing one part of `partBytes` bytes takes: one `put`, or for a part larger than a multipart
 * chunk, `createMultipartUpload`, the coordinator's `recordMultipart`, one `uploadPart` per chunk, `complete` and
 * the coordinator's `completedMultipart`.
 */
function partWriteCalls(partBytes: number): number {
  return partBytes <= DEFAULT_CHUNK_BYTES ? 1 : 4 + Math.ceil(partBytes / DEFAULT_CHUNK_BYTES);
}

/**
 * Most parts `bytes` of numbers text can make in parts of at most `maxPartBytes`: a part ends at a line break,
 * so it may be up to one line short of full.
 */
function mostParts(bytes: number, maxPartBytes: number): number {
  return Math.max(1, Math.ceil(bytes / Math.max(1, maxPartBytes - MAX_LINE_BYTES)));
}

/** Subrequests an upload of `bytes` in parts of at most `maxPartBytes` needs, clean-up included. */
function uploadCalls(bytes: number, maxPartBytes: number): number {
  const parts = mostParts(bytes, maxPartBytes) * partWriteCalls(Math.min(bytes, maxPartBytes));
  return UPLOAD_CALLS + parts + lineIndexWriteCalls(Math.min(bytes, maxPartBytes));
}

/**
 * The write of the line index an upload stores after its parts (see `line-index.ts`): only a part of more than
 * 2 · `LINE_INDEX_EVERY` bytes can hold more than `LINE_INDEX_EVERY` lines (each line takes 2 bytes at least), so
 * uploads in smaller parts write none.
 */
function lineIndexWriteCalls(partBytes: number): number {
  return partBytes > 2 * LINE_INDEX_EVERY ? 1 : 0;
}

/**
 * Checks that storing `bytes` (or, when the length is not declared, whatever arrives) in parts of at most
 * `maxPartBytes` fits `budget`, then reserves the clean-up call. A body of unknown length is checked as it
 * arrives: the part that would not fit fails the upload, which is cleaned up.
 *
 * @throws {PartLimitError} when the body cannot but make more than `MAX_PARTS` parts (`413 too-many-parts`).
 * @throws {HttpError} `422 over-budget`, naming the smallest `maxPartBytes` that fits, or upload sessions when
 * none does.
 */
export function budgetUpload(budget: RequestBudget, bytes: number | undefined, maxPartBytes: number): void {
  if (bytes !== undefined && Math.ceil(bytes / maxPartBytes) > MAX_PARTS) throw new PartLimitError(maxPartBytes);
  if (bytes !== undefined) {
    const needed = uploadCalls(bytes, maxPartBytes);
    if (needed > budget.remaining) {
      budget.check(
        needed,
        `store ${bytes} bytes in parts of at most ${maxPartBytes} bytes`,
        uploadAdvice(budget, bytes),
      );
    }
  }
  budget.reserve(1);
}

/**
 * The most bytes one upload in parts of at most `maxPartBytes` may carry when `available` subrequests are left
 * for it: what {@linkcode budgetUpload} accepts with that much budget (0 when not even one part fits).
 *
 * @example
 * ```ts
 * // 41 parts of 1 MiB less a line, the 7 calls around them and the write of the line index:
 * largestUpload(49, 1024 * 1024); // 42990919
 * ```
 */
export function largestUpload(available: number, maxPartBytes: number): number {
  if (uploadCalls(1, maxPartBytes) > available) return 0;
  const most = maxPartBytes * MAX_PARTS;
  if (uploadCalls(most, maxPartBytes) <= available) return most;
  // uploadCalls grows with the byte count: find the last count that fits, between a fitting and a failing one.
  let fits = 1;
  let fails = most;
  while (fails - fits > 1) {
    const middle = Math.floor((fits + fails) / 2);
    if (uploadCalls(middle, maxPartBytes) <= available) fits = middle;
    else fails = middle;
  }
  return fits;
}

/** What to ask for instead of an upload that does not fit. */
function uploadAdvice(budget: RequestBudget, bytes: number): string {
  for (let size = 1 << 20; size <= 4 * 1024 ** 3; size *= 2) {
    if (uploadCalls(bytes, size) <= budget.remaining) return `send it with maxPartBytes=${size} or more`;
  }
  return "send it as an upload session of smaller segments (POST /files/:name/uploads)";
}

/**
 * How a read of `parts` parts of the file `manifest` describes (all of them, or those a byte range covers) fits what
 * the request has left after opening the read: `"direct"`, each part read by the request itself, or else the parts
 * per call to the file's coordinator, an invocation with `subrequests` of its own (one R2 read per part, two spare).
 *
 * @throws {HttpError} `422 over-budget` when even the calls do not fit, pointing to part reads.
 */
export function contentReadStrategy(
  budget: RequestBudget,
  manifest: Manifest,
  parts: number,
  subrequests: number,
): number | "direct" {
  const { name } = manifest;
  if (parts + READ_CALLS - 1 <= budget.remaining) return "direct";
  const perCall = Math.max(1, subrequests - 2);
  budget.check(
    Math.ceil(parts / perCall) + READ_CALLS - 1,
    `read ${parts} parts of "${name}" in one request`,
    `read a smaller range, or one part per request: GET /files/${encodeURIComponent(name)}/parts/0 to ` +
      `${manifest.parts.length - 1}`,
  );
  return perCall;
}

/**
 * The page size of a `GET /files` with `?limit=` `text` (default and most: as many as fit, at most
 * {@linkcode MAX_LIST_PAGE}): one listing call and one manifest read per file.
 *
 * @throws {HttpError} `400 invalid-limit` for a limit that is not a whole number from 1.
 */
export function listingPageSize(budget: RequestBudget, text: string | null): number {
  const fits = Math.min(MAX_LIST_PAGE, budget.remaining - 1);
  if (text === null) {
    budget.check(2, "list files", "try again in a new request");
    return fits;
  }
  const limit = /^[0-9]{1,6}$/.test(text) ? Number(text) : 0;
  if (limit < 1) {
    throw new HttpError(400, "invalid-limit", `Cannot list "${text}" files: expected a whole number from 1`);
  }
  budget.check(limit + 1, `list ${limit} files in one request`, `ask for at most ${fits} (limit=${fits})`);
  return limit;
}

/** Most top-level entries one `POST /sweep` step lists: the most one R2 listing answers. */
const MAX_SWEEP_STEP = 1000;

/**
 * The entries one `POST /sweep` step sweeps: one listing call, one deletion of the loose objects, then one
 * coordinator call per file name, as many as fit, at most {@linkcode MAX_SWEEP_STEP} (48 on Free; on Paid's 10,000
 * the listing's 1,000). A name outside drainpipe's layout costs a listing and a deletion of its own.
 */
export function sweepStepSize(budget: RequestBudget): number {
  budget.check(3, "sweep the bucket", "try again in a new request");
  return Math.min(MAX_SWEEP_STEP, budget.remaining - 2);
}

/**
 * Most bytes the first `count` primes take as text: the `count`-th prime is below n (ln n + ln ln n) for
 * n ≥ 6 (Rosser's bound), and no line is longer than that prime's digits and a line break.
 */
export function primeTextBytes(count: number): number {
  const bound = count < 6 ? 13 : count * (Math.log(count) + Math.log(Math.log(count)));
  return count * (String(Math.ceil(bound)).length + 1);
}
