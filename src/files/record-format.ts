/**
 * Checking the shape of a stored JSON record (a manifest, a segment summary) as it is read back: the parsers
 * next to each record's type build on these readers, so a record of another version or a damaged one fails
 * with a {@linkcode RecordFormatError} naming the field instead of travelling on as a wrongly typed object.
 *
 * @module
 */
import type { PartRecord } from "../split/part-splitter.ts";

/** A stored record is not valid JSON, or not of the expected version and shape. */
export class RecordFormatError extends Error {
  override name = "RecordFormatError";
}

/** A plain JSON object's fields. */
export type JsonFields = Record<string, unknown>;

/**
 * Parses `text` as JSON and checks it is an object; `what` names the record in the error ("manifest").
 *
 * @throws {RecordFormatError} when `text` is not JSON or not an object, the JSON error as `cause`.
 * @example
 * ```ts
 * parseRecord('{"a":1}', "manifest").a; // 1
 * parseRecord("[1]", "manifest"); // throws RecordFormatError "Cannot read manifest: expected a JSON object"
 * ```
 */
export function parseRecord(text: string, what: string): JsonFields {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new RecordFormatError(`Cannot read ${what}: ${detail}`, { cause: error });
  }
  return asObject(value, what, "a JSON object");
}

/**
 * `value` as an object's fields.
 *
 * @throws {RecordFormatError} when it is not a plain object; `field` names it in the message.
 */
export function asObject(value: unknown, what: string, field: string): JsonFields {
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail(what, `expected ${field}`);
  return value as JsonFields;
}

/** `fields[key]`, checked to be a finite number. */
export function numberField(fields: JsonFields, key: string, what: string): number {
  const value = fields[key];
  if (typeof value !== "number" || !Number.isFinite(value)) fail(what, `"${key}" must be a number`);
  return value;
}

/** `fields[key]`, checked to be a finite number or `null`. */
export function nullableNumberField(fields: JsonFields, key: string, what: string): number | null {
  return fields[key] === null ? null : numberField(fields, key, what);
}

/** `fields[key]`, checked to be a string. */
export function stringField(fields: JsonFields, key: string, what: string): string {
  const value = fields[key];
  if (typeof value !== "string") fail(what, `"${key}" must be a string`);
  return value;
}

/** `fields[key]`, checked to be a boolean. */
export function booleanField(fields: JsonFields, key: string, what: string): boolean {
  const value = fields[key];
  if (typeof value !== "boolean") fail(what, `"${key}" must be true or false`);
  return value;
}

/** `fields[key]`, checked to be an array. */
export function arrayField(fields: JsonFields, key: string, what: string): unknown[] {
  const value = fields[key];
  if (!Array.isArray(value)) fail(what, `"${key}" must be an array`);
  return value;
}

/** Throws the {@linkcode RecordFormatError} "Cannot read `what`: `reason`". */
export function fail(what: string, reason: string): never {
  throw new RecordFormatError(`Cannot read ${what}: ${reason}`);
}

/**
 * `fields[key]`, checked to be an array of part records (as `storeNumbers` writes them); a part's `lineIndex` and
 * `lineIndexFirst` may be absent together (a part stored before line indexes existed).
 */
export function partRecordsField(fields: JsonFields, key: string, what: string): PartRecord[] {
  return arrayField(fields, key, what).map((value, position) => {
    const part = asObject(value, what, `part ${position} to be an object`);
    const record: PartRecord = {
      index: numberField(part, "index", what),
      key: stringField(part, "key", what),
      bytes: numberField(part, "bytes", what),
      numbers: numberField(part, "numbers", what),
      first: numberField(part, "first", what),
      last: numberField(part, "last", what),
      etag: stringField(part, "etag", what),
    };
    if (part.lineIndex !== undefined) {
      record.lineIndex = numberField(part, "lineIndex", what);
      record.lineIndexFirst = numberField(part, "lineIndexFirst", what);
    }
    return record;
  });
}
