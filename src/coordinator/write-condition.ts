/**
 * What a write (a publication, a session's completion, a deletion) may require of the file's current version, so
 * that clients get optimistic concurrency without a lock: the coordinator checks it at the moment it would make
 * the change, one change at a time.
 *
 * @module
 */

/** The versions a write may replace, by upload id (the HTTP API's `If-Match` and `If-None-Match`, parsed). */
export interface WriteCondition {
  /** `"any"`: some version must be current; a list: one of these versions must be current. */
  ifMatch?: "any" | string[];
  /** `"any"`: no version may be current (create only); a list: none of these versions may be current. */
  ifNoneMatch?: "any" | string[];
}

/** A write refused because its condition did not hold: nothing changed. */
export interface ConditionFailed {
  /** Always `"precondition-failed"`. */
  reason: "precondition-failed";
  /** The upload id of the version that was current, or `null` when there was none. */
  current: string | null;
}

/**
 * Whether `condition` holds when `current` (an upload id, or `null` for no file) is the current version. No
 * condition always holds.
 *
 * @example
 * ```ts
 * conditionHolds({ ifNoneMatch: "any" }, null); // true
 * conditionHolds({ ifMatch: ["u1"] }, "u2"); // false
 * ```
 */
export function conditionHolds(condition: WriteCondition | undefined, current: string | null): boolean {
  const { ifMatch, ifNoneMatch } = condition ?? {};
  if (ifMatch !== undefined && (current === null || (ifMatch !== "any" && !ifMatch.includes(current)))) return false;
  if (ifNoneMatch !== undefined && current !== null && (ifNoneMatch === "any" || ifNoneMatch.includes(current))) {
    return false;
  }
  return true;
}
