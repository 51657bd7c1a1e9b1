/**
 * Random access by line and by value over HTTP:
 *
 * | route | does |
 * | --- | --- |
 * | `GET /files/:name/lines?from=I&count=N` | lines I … I + N − 1 (0-based; N from 1 to 10,000, default 1) as text |
 * | `GET /files/:name/search?value=V` | `{ index, value, found }`: the first line whose number is at least V |
 *
 * Both are reads like the content routes: one coordinated read of the current version (no lease for a read shorter
 * than half the grace period), its `ETag` and `Last-Modified`, the conditional headers (`304`, `412`), checked
 * against the request's subrequest budget. A `lines` answer is buffered (at most 10,000 lines of at most 17 bytes),
 * so the read ends before the response is sent.
 *
 * @module
 */
import {
  LineIndexMissingError,
  linePieces,
  linePiecesCalls,
  MAX_LINES_COUNT,
  NotSortedError,
} from "../files/line-reads.ts";
import type { Manifest } from "../files/manifest.ts";
import type { SearchResult } from "../http-contract/bodies.ts";
import { LINE_COUNT_HEADER, LINE_FROM_HEADER, LINE_TOTAL_HEADER } from "../http-contract/headers.ts";
import { type CoordinatedRead, withReadLease } from "./coordinated-read.ts";
import { HttpError } from "./http-error.ts";
import { readDecision } from "./read-preconditions.ts";
import { READ_CALLS } from "./request-costs.ts";
import type { RequestScope } from "./request-scope.ts";
import { type Route, routeBuilder } from "./router.ts";
import { validatorHeaders } from "./validators.ts";

const route = routeBuilder<RequestScope>();

/** The default `count` of a `lines` request. */
export const DEFAULT_LINES_COUNT = 1;

/** Store calls a search makes at most: entries of one part's line index, and one byte range of the part. */
const SEARCH_CALLS = 2;

/**
 * The `lines` and `search` routes; `openRead` opens a coordinated read of a file's current version (or answers 404).
 *
 * @example
 * ```ts
 * import { CoordinatedRead, type ReadTerms } from "./coordinated-read.ts";
 * declare const terms: ReadTerms;
 * const routes = lineRoutes(async (name, scope) => (await CoordinatedRead.open(scope.coordinatorOf(name), terms))!);
 * ```
 */
export function lineRoutes(
  openRead: (name: string, scope: RequestScope) => Promise<CoordinatedRead<Manifest>>,
): Route<RequestScope>[] {
  /** Runs `answer` on the current version of `name`, holding its read until it has answered. */
  const withRead = async (
    request: Request,
    name: string,
    scope: RequestScope,
    ctx: ExecutionContext,
    answer: (manifest: Manifest) => Promise<Response>,
  ): Promise<Response> =>
    withReadLease(await openRead(name, scope), ctx, async ({ subject: manifest }) => {
      if (readDecision(request, name, manifest) === "not-modified") {
        return new Response(null, { status: 304, headers: validatorHeaders(manifest) });
      }
      return answer(manifest);
    });

  return [
    route("GET", "/files/:name/lines", "read", ({ request, params: { name }, url, ctx, scope }) => {
      const from = wholeNumber(url, "from", undefined, 0, Number.MAX_SAFE_INTEGER);
      const count = wholeNumber(url, "count", DEFAULT_LINES_COUNT, 1, MAX_LINES_COUNT);
      return withRead(request, name, scope, ctx, async (manifest) => {
        if (manifest.lineIndexEvery === null) indexMissing(manifest, "read lines");
        const total = manifest.totals.numbers;
        if (from >= total) {
          throw new HttpError(
            416,
            "lines-not-satisfiable",
            `Cannot read lines from ${from} of "${name}": it has ${total} lines (0 to ${total - 1})`,
            {
              headers: { [LINE_TOTAL_HEADER]: String(total), ...validatorHeaders(manifest) },
              extra: { lines: total },
            },
          );
        }
        const pieces = linePieces(manifest, from, count);
        scope.budget.check(
          READ_CALLS + linePiecesCalls(manifest, pieces),
          `read ${count} lines of "${name}" from ${from}`,
          "ask for fewer lines (count)",
        );
        const lines = await scope.catalog.lines(manifest, from, count);
        return new Response(lines.bytes, {
          headers: {
            "Content-Type": "text/plain; charset=utf-8",
            "Content-Length": String(lines.bytes.length),
            [LINE_FROM_HEADER]: String(from),
            [LINE_COUNT_HEADER]: String(lines.count),
            [LINE_TOTAL_HEADER]: String(total),
            ...validatorHeaders(manifest),
          },
        });
      });
    }),
    route("GET", "/files/:name/search", "read", ({ request, params: { name }, url, ctx, scope }) => {
      const value = searchedValue(url);
      return withRead(request, name, scope, ctx, async (manifest) => {
        if (manifest.sorted === null) indexMissing(manifest, "search by value");
        if (manifest.sorted === false) {
          throw new HttpError(409, "not-sorted", new NotSortedError(name).message);
        }
        scope.budget.check(READ_CALLS + SEARCH_CALLS, `search "${name}"`, "try again in a new request");
        const found: SearchResult = await scope.catalog.search(manifest, value);
        return Response.json(found, { headers: validatorHeaders(manifest) });
      });
    }),
  ];
}

/**
 * Refuses a file stored before line indexes existed (or whose order is not known) with `409 no-line-index`.
 *
 * @throws {HttpError} always.
 */
function indexMissing(manifest: Manifest, what: string): never {
  throw new HttpError(409, "no-line-index", new LineIndexMissingError(manifest.name, what).message);
}

/**
 * The query parameter `key` as a whole number from `min` to `max`, or `fallback` when absent; `from` has none.
 *
 * @throws {HttpError} `400 missing-from` when `from` is absent, `400 invalid-<key>` when not such a number.
 */
function wholeNumber(url: URL, key: "from" | "count", fallback: number | undefined, min: number, max: number): number {
  const text = url.searchParams.get(key);
  if (text === null) {
    if (fallback !== undefined) return fallback;
    throw new HttpError(400, "missing-from", `Cannot read lines: the query parameter ${key} is missing`);
  }
  const value = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new HttpError(
      400,
      `invalid-${key}`,
      `Cannot read lines: ${key} ${JSON.stringify(text)} is not a whole number from ${min} to ${max}`,
    );
  }
  return value;
}

/**
 * The `value` query parameter: a decimal integer of magnitude at most 2^53 − 1.
 *
 * @throws {HttpError} `400 missing-value` or `400 invalid-value`.
 */
function searchedValue(url: URL): number {
  const text = url.searchParams.get("value");
  if (text === null) throw new HttpError(400, "missing-value", "Cannot search: the query parameter value is missing");
  const value = /^-?[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new HttpError(
      400,
      "invalid-value",
      `Cannot search for ${JSON.stringify(text)}: value must be a decimal integer from −(2^53 − 1) to 2^53 − 1`,
    );
  }
  return value;
}
