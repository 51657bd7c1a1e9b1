import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { forbiddenImports, type ImportEdge, importCircles, readImportGraph } from "./import-graph.ts";

const edges = readImportGraph(join(import.meta.dirname, "../../src/streams"));

describe("the import graph of src/streams", () => {
  test("the scan reads the imports it should", () => {
    const lines = edges.map(({ from, to }) => `${from} -> ${to}`);
    expect(lines).toContain("engine/readable-stream.ts -> standard/webidl.ts");
    expect(lines).toContain("engine/fast-paths/write-with-request.ts -> base/completion.ts");
    expect(lines).toContain("index.ts -> engine/readable-stream.ts");
    expect(edges.find(({ from }) => from === "engine/fast-paths/writev.ts")?.typeOnly).toBe(true);
  });

  test("each folder imports only itself and the folders below it", () => {
    expect(forbiddenImports(edges)).toEqual([]);
  });

  test("a spec file importing drainpipe's engine, or base/ importing anything, is reported", () => {
    const broken: ImportEdge[] = [
      { from: "standard/webidl.ts", to: "engine/fast-paths/dequeue.ts", typeOnly: true },
      { from: "base/completion.ts", to: "standard/webidl.ts", typeOnly: false },
      { from: "engine/readable-stream.ts", to: "adapters/to-native.ts", typeOnly: false },
      { from: "adapters/to-native.ts", to: "../numbers/index.ts", typeOnly: false },
      { from: "engine/readable-stream.ts", to: "base/completion.ts", typeOnly: false },
    ];
    expect(forbiddenImports(broken)).toEqual([
      "standard/webidl.ts -> engine/fast-paths/dequeue.ts",
      "base/completion.ts -> standard/webidl.ts",
      "engine/readable-stream.ts -> adapters/to-native.ts",
      "adapters/to-native.ts -> ../numbers/index.ts",
    ]);
  });

  test("import circles stay inside engine/", () => {
    const circles = importCircles(edges, false);
    expect(circles.length).toBeGreaterThan(0);
    for (const circle of circles) expect(circle.filter((file) => !file.startsWith("engine/"))).toEqual([]);
  });

  test("the circle finder finds a circle and ignores type-only edges when asked", () => {
    const graph: ImportEdge[] = [
      { from: "a.ts", to: "b.ts", typeOnly: false },
      { from: "b.ts", to: "c.ts", typeOnly: false },
      { from: "c.ts", to: "a.ts", typeOnly: true },
      { from: "c.ts", to: "d.ts", typeOnly: false },
    ];
    expect(importCircles(graph, false)).toEqual([["a.ts", "b.ts", "c.ts"]]);
    expect(importCircles(graph, true)).toEqual([]);
  });
});
