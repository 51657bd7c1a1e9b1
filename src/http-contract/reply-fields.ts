/**
 * Reading a JSON reply field by field, each checked for its type, so that the reply parsers build typed bodies
 * without casts and a wrong field fails with a {@linkcode ReplyFormatError} naming its path.
 *
 * @module
 */
import { ReplyFormatError } from "./reply-format-error.ts";

/**
 * The fields of one JSON object in a reply, at `path` within it (`""` for the body, `files[2]` for an entry).
 *
 * @example
 * ```ts
 * const body = ReplyFields.parse('{"files":[{"name":"p"}],"cursor":null}', "GET /files");
 * body.nullableString("cursor"); // null
 * body.objects("files", (file) => file.string("name")); // ["p"]
 * body.number("cursor"); // throws Error "Cannot read the reply to GET /files: \"cursor\" must be a number"
 * ```
 */
export class ReplyFields {
  /** The reply these fields belong to, as its route (`GET /files`). */
  readonly reply: string;
  /** Where these fields sit in the reply. */
  readonly path: string;
  readonly #fields: Record<string, unknown>;

  private constructor(reply: string, path: string, fields: Record<string, unknown>) {
    this.reply = reply;
    this.path = path;
    this.#fields = fields;
  }

  /**
   * The fields of `text`, which must be a JSON object.
   *
   * @throws {ReplyFormatError} when it is not JSON (the syntax error as `cause`) or not an object.
   */
  static parse(text: string, reply: string): ReplyFields {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new ReplyFormatError(reply, "", "is not JSON", { cause: error });
    }
    return ReplyFields.of(value, reply, "");
  }

  /**
   * `value` (at `path` of `reply`) as an object's fields.
   *
   * @throws {ReplyFormatError} when it is not a plain object.
   */
  static of(value: unknown, reply: string, path: string): ReplyFields {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new ReplyFormatError(reply, path, "must be an object");
    }
    return new ReplyFields(reply, path, value as Record<string, unknown>);
  }

  /** Whether the field `key` is present (not `undefined`). */
  has(key: string): boolean {
    return this.#fields[key] !== undefined;
  }

  /** The string `key`. */
  string(key: string): string {
    return this.#string(key, "must be a string");
  }

  /** The string `key`, or `null`. */
  nullableString(key: string): string | null {
    return this.#fields[key] === null ? null : this.#string(key, "must be a string or null");
  }

  /** The finite number `key`. */
  number(key: string): number {
    const value = this.#fields[key];
    if (typeof value !== "number" || !Number.isFinite(value)) this.#wrong(key, "must be a number");
    return value;
  }

  /** The finite number `key`, or `null`. */
  nullableNumber(key: string): number | null {
    return this.#fields[key] === null ? null : this.number(key);
  }

  /** The boolean `key`. */
  boolean(key: string): boolean {
    const value = this.#fields[key];
    if (typeof value !== "boolean") this.#wrong(key, "must be true or false");
    return value;
  }

  /** The boolean `key`, or `null`. */
  nullableBoolean(key: string): boolean | null {
    return this.#fields[key] === null ? null : this.boolean(key);
  }

  /** The field `key`, which must be one of `values`. */
  oneOf<const T extends string | boolean>(key: string, values: readonly T[]): T {
    const value = this.#fields[key];
    const found = values.find((candidate) => candidate === value);
    if (found === undefined) this.#wrong(key, `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`);
    return found;
  }

  /** The array of finite numbers `key`. */
  numbers(key: string): number[] {
    return this.#array(key).map((value, index) => {
      if (typeof value !== "number" || !Number.isFinite(value)) this.#wrong(`${key}[${index}]`, "must be a number");
      return value;
    });
  }

  /** The object `key`, read by `read`. */
  object<T>(key: string, read: (fields: ReplyFields) => T): T {
    return read(ReplyFields.of(this.#fields[key], this.reply, this.#pathOf(key)));
  }

  /** The array of objects `key`, each read by `read`. */
  objects<T>(key: string, read: (fields: ReplyFields) => T): T[] {
    return this.#array(key).map((value, index) =>
      read(ReplyFields.of(value, this.reply, this.#pathOf(`${key}[${index}]`))),
    );
  }

  /** `read(key)` when the field `key` is present, else `undefined`. */
  optional<T>(key: string, read: (key: string) => T): T | undefined {
    return this.has(key) ? read(key) : undefined;
  }

  #array(key: string): unknown[] {
    const value = this.#fields[key];
    if (!Array.isArray(value)) this.#wrong(key, "must be an array");
    return value;
  }

  #string(key: string, problem: string): string {
    const value = this.#fields[key];
    if (typeof value !== "string") this.#wrong(key, problem);
    return value;
  }

  #pathOf(key: string): string {
    return this.path === "" ? key : `${this.path}.${key}`;
  }

  #wrong(key: string, problem: string): never {
    throw new ReplyFormatError(this.reply, this.#pathOf(key), problem);
  }
}
