import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, test } from "vitest";
import { ErrorCode } from "../../src/http-contract/error-code.ts";

// The HTTP API's documentation says when each error code is sent (as ErrorCode's own documentation promises): its
// Errors table names every code of the contract, and no other.
const ROOT = resolve(import.meta.dirname, "../..");

/** The codes named in the second column of the table of `docs/http-api.md`'s "Errors" section. */
function documentedCodes(): string[] {
  const text = readFileSync(join(ROOT, "docs/http-api.md"), "utf8");
  const start = text.indexOf("\n## Errors\n");
  expect(start).toBeGreaterThan(0);
  const section = text.slice(start + 1, text.indexOf("\n## ", start + 1));
  return section
    .split("\n")
    .filter((line) => /^\| \d{3} \|/.test(line))
    .flatMap((line) => [...line.split(" | ")[1]!.matchAll(/`([a-z-]+)`/g)].map((match) => match[1]!));
}

test("the Errors table of docs/http-api.md names every error code of the contract, and no other", () => {
  expect(documentedCodes().sort()).toEqual(Object.values(ErrorCode).sort());
});
