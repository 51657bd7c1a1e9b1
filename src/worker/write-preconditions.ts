/**
 * The conditional headers of a write (`POST /files/:name`, a session's `complete`, `DELETE /files/:name`):
 * `If-Match: "<etag>"` (only if that version is current; `*`: if any is) and `If-None-Match: *` (only if the name
 * is free; a list of tags: only if none of them is current), handed to the file's coordinator, which decides.
 *
 * @module
 */
import type { WriteCondition } from "../coordinator/write-condition.ts";
import { HttpError } from "./http-error.ts";
import { parseEntityTags, versionEtag } from "./validators.ts";

/**
 * The condition `request`'s `If-Match` and `If-None-Match` put on the write, or `undefined` when it has neither.
 * `If-Match` compares strongly (a weak tag matches nothing), `If-None-Match` weakly.
 *
 * @example
 * ```ts
 * writeCondition(new Request("https://x/", { headers: { "If-Match": '"u1"' } })); // { ifMatch: ["u1"] }
 * writeCondition(new Request("https://x/", { headers: { "If-None-Match": "*" } })); // { ifNoneMatch: "any" }
 * ```
 */
export function writeCondition(request: Request): WriteCondition | undefined {
  const ifMatch = request.headers.get("If-Match");
  const ifNoneMatch = request.headers.get("If-None-Match");
  if (ifMatch === null && ifNoneMatch === null) return undefined;
  const condition: WriteCondition = {};
  if (ifMatch !== null) {
    const tags = parseEntityTags(ifMatch);
    condition.ifMatch = tags === "*" ? "any" : tags.filter((tag) => !tag.weak).map((tag) => tag.opaque);
  }
  if (ifNoneMatch !== null) {
    const tags = parseEntityTags(ifNoneMatch);
    condition.ifNoneMatch = tags === "*" ? "any" : tags.map((tag) => tag.opaque);
  }
  return condition;
}

/**
 * The `412` of a write of `name` its condition ruled out: `current` is the version that was current (its upload
 * id), or `null` when there was none.
 */
export function preconditionFailed(action: string, name: string, current: string | null): HttpError {
  const etag = current === null ? null : versionEtag({ uploadId: current });
  const state = etag === null ? `"${name}" does not exist` : `the current version of "${name}" is ${etag}`;
  return new HttpError(
    412,
    "precondition-failed",
    `Cannot ${action}: ${state}, which If-Match or If-None-Match rules out`,
    {
      extra: { etag },
    },
  );
}
