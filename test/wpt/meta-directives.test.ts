import { describe, expect, test } from "vitest";
import { isRunnableInWorkerLikeGlobal, parseMetaDirectives } from "./meta-directives.ts";

describe("parseMetaDirectives", () => {
  test("reads globals, scripts in order, the long timeout and the title", () => {
    const source = [
      "// META: global=window,worker,shadowrealm",
      "// META: script=../resources/test-utils.js",
      "// META: script=/resources/idlharness.js",
      "// META: timeout=long",
      "// META: title=Streams",
      "",
      "test(() => {});",
    ].join("\n");
    expect(parseMetaDirectives(source)).toEqual({
      globals: ["window", "worker", "shadowrealm"],
      scripts: ["../resources/test-utils.js", "/resources/idlharness.js"],
      longTimeout: true,
      title: "Streams",
    });
  });

  test("defaults to window and dedicatedworker and stops at the first line of code", () => {
    const meta = parseMetaDirectives("'use strict';\n// META: script=late.js\n");
    expect(meta.globals).toEqual(["window", "dedicatedworker"]);
    expect(meta.scripts).toEqual([]);
    expect(meta.longTimeout).toBe(false);
  });
});

describe("isRunnableInWorkerLikeGlobal", () => {
  test("accepts window, worker, shadowrealm and their variants", () => {
    expect(isRunnableInWorkerLikeGlobal(["window", "dedicatedworker", "shadowrealm"])).toBe(true);
    expect(isRunnableInWorkerLikeGlobal(["shadowrealm-in-window"])).toBe(true);
    expect(isRunnableInWorkerLikeGlobal(["dedicatedworker-module"])).toBe(true);
  });

  test("rejects files only meant for shared or service workers", () => {
    expect(isRunnableInWorkerLikeGlobal(["sharedworker", "serviceworker"])).toBe(false);
    expect(isRunnableInWorkerLikeGlobal(["!window"])).toBe(false);
  });
});
