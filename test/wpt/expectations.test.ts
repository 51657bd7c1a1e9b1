import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import {
  compareWithExpectations,
  HARNESS_ENTRY,
  InvalidExpectationsError,
  loadExpectations,
  loadRuntimeExpectations,
} from "./expectations.ts";
import { subtestsBehindNative } from "./report.ts";
import type { FileResult } from "./results.ts";

function writeJson(value: unknown): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "wpt-expectations-")), "expectations.json");
  writeFileSync(file, JSON.stringify(value));
  return file;
}

const FILE = "streams/piping/abort.any.js";

function result(overrides: Partial<FileResult>): FileResult {
  return { file: FILE, harnessStatus: "OK", harnessMessage: null, subtests: [], output: "", ...overrides };
}

describe("loadExpectations", () => {
  test("reads the reasons by file and subtest", () => {
    const expectations = loadExpectations(writeJson({ [FILE]: { "a subtest": "needs X" } }));
    expect(expectations.get(FILE)?.get("a subtest")).toBe("needs X");
  });

  test("rejects an entry without a written reason", () => {
    expect(() => loadExpectations(writeJson({ [FILE]: { "a subtest": " " } }))).toThrow(InvalidExpectationsError);
  });
});

describe("compareWithExpectations", () => {
  const run = [
    result({
      subtests: [
        { name: "passes", status: "PASS", message: null },
        { name: "listed", status: "FAIL", message: "boom" },
        { name: "regressed", status: "TIMEOUT", message: null },
      ],
    }),
  ];

  test("reports failures that are not listed, and only those", () => {
    const expectations = new Map([[FILE, new Map([["listed", "known"]])]]);
    const { unexpectedFailures } = compareWithExpectations(run, expectations);
    expect(unexpectedFailures.map((deviation) => deviation.name)).toEqual(["regressed"]);
  });

  test("lets * cover every subtest of a file", () => {
    const expectations = new Map([[FILE, new Map([["*", "whole file unsupported"]])]]);
    expect(compareWithExpectations(run, expectations).unexpectedFailures).toEqual([]);
  });

  test("reports listed subtests that pass or no longer exist as stale", () => {
    const expectations = new Map([
      [
        FILE,
        new Map([
          ["passes", "old"],
          ["renamed", "old"],
          ["listed", "known"],
        ]),
      ],
    ]);
    const { staleExpectations } = compareWithExpectations(run, expectations);
    expect(staleExpectations.map((deviation) => [deviation.name, deviation.status])).toEqual([
      ["passes", "PASS"],
      ["renamed", "MISSING"],
    ]);
  });

  test("counts a harness status other than OK as a failure unless listed", () => {
    const crashed = [result({ harnessStatus: "CRASH", harnessMessage: "worker died" })];
    expect(compareWithExpectations(crashed, new Map()).unexpectedFailures.map((d) => d.name)).toEqual([HARNESS_ENTRY]);
    const listed = new Map([[FILE, new Map([[HARNESS_ENTRY, "known crash"]])]]);
    expect(compareWithExpectations(crashed, listed).unexpectedFailures).toEqual([]);
  });
});

describe("loadRuntimeExpectations", () => {
  test("adds the entries of expectations.<runtime>.json beside the common file, when it exists", () => {
    const common = writeJson({ [FILE]: { everywhere: "not standard" } });
    writeFileSync(common.replace(/\.json$/, ".node20.json"), JSON.stringify({ [FILE]: { "on node20": "no API" } }));
    expect([...(loadRuntimeExpectations(common, "node20").get(FILE)?.keys() ?? [])]).toEqual([
      "everywhere",
      "on node20",
    ]);
    expect([...(loadRuntimeExpectations(common, "deno").get(FILE)?.keys() ?? [])]).toEqual(["everywhere"]);
  });
});

describe("subtestsBehindNative", () => {
  test("lists the subtests native streams pass and drainpipe does not, missing ones included", () => {
    const native = [
      result({
        subtests: [
          { name: "both pass", status: "PASS", message: null },
          { name: "drainpipe fails", status: "PASS", message: null },
          { name: "drainpipe lacks", status: "PASS", message: null },
          { name: "native fails", status: "FAIL", message: "x" },
        ],
      }),
    ];
    const drainpipe = [
      result({
        subtests: [
          { name: "both pass", status: "PASS", message: null },
          { name: "drainpipe fails", status: "FAIL", message: "boom" },
          { name: "native fails", status: "PASS", message: null },
        ],
      }),
    ];
    expect(subtestsBehindNative(native, drainpipe).map(({ name, status }) => `${name}: ${status}`)).toEqual([
      "drainpipe fails: FAIL",
      "drainpipe lacks: MISSING",
    ]);
  });
});
