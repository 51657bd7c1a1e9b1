import { describe, expect, test } from "vitest";
import { parseTap } from "./tap.ts";

const OUTPUT = `TAP version 14
# ./streams/a_test.ts
ok 1 - adds
not ok 2 - subtracts
  ---
  {"message":"AssertionError: Values are not equal.\\n\\n-   1\\n+   2","severity":"fail"}
  ...
# ./streams/b_test.ts
# Subtest: steps
    ok 1 - step one
    not ok 2 - step two
    1..2
not ok 3 - steps
  ---
  not json
  ...
ok 4 - skipped # SKIP
1..4
`;

describe("parseTap", () => {
  test("reads each top-level test with its file, never a step or an ignored test", () => {
    expect(parseTap(OUTPUT).map(({ file, name, passed }) => [file, name, passed])).toEqual([
      ["./streams/a_test.ts", "adds", true],
      ["./streams/a_test.ts", "subtracts", false],
      ["./streams/b_test.ts", "steps", false],
    ]);
  });

  test("keeps the first line of a failure's message, JSON or not", () => {
    const failed = parseTap(OUTPUT).filter((result) => !result.passed);
    expect(failed.map((result) => result.message)).toEqual(["AssertionError: Values are not equal.", "not json"]);
  });

  test("finds nothing in output that is not TAP", () => {
    expect(parseTap("error: Module not found\n")).toEqual([]);
  });
});
