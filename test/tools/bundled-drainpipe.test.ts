import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import * as source from "../../src/streams/index.ts";
import { bundleDrainpipeStreams, bundledDrainpipe } from "../../tools/bundled-drainpipe.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dir = await mkdtemp(join(tmpdir(), "drainpipe-bundle-"));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("bundleDrainpipeStreams", () => {
  test("builds one module with every export of src/streams, and its streams work", async () => {
    const bundle = await import(await bundleDrainpipeStreams(join(dir, "streams.js")));
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(source).sort());
    const seen: number[][] = [];
    const readable = new bundle.ReadableStream({
      start(controller: source.ReadableStreamDefaultController<number>) {
        for (let i = 0; i < 5; i++) controller.enqueue(i);
        controller.close();
      },
    });
    await readable
      .pipeThrough(
        new bundle.TransformStream({
          transform: (n: number, c: source.TransformStreamDefaultController<number>) => c.enqueue(n * 2),
        }),
      )
      .pipeTo(
        new bundle.WritableStream({ writev: (chunks: number[]) => void seen.push([...chunks]) }, { highWaterMark: 16 }),
      );
    expect(seen.flat()).toEqual([0, 2, 4, 6, 8]);
    expect(readable).not.toBeInstanceOf(source.ReadableStream);
  });
});

describe("bundledDrainpipe", () => {
  const plugin = bundledDrainpipe();
  const resolveId = plugin.resolveId as (source: string, importer: string | undefined) => Promise<string | null>;

  test("redirects bench/implementations/registry.ts' import of src/streams/index.ts to the bundle", async () => {
    const resolved = await resolveId("../../src/streams/index.ts", join(ROOT, "bench/implementations/registry.ts"));
    expect(resolved).toBe(join(ROOT, "bench/.cache/drainpipe-streams.js"));
  });

  test("leaves every other import alone", async () => {
    expect(await resolveId("../../src/streams/index.ts", join(ROOT, "bench/workers/ingest-worker.ts"))).toBeNull();
    expect(await resolveId("../harness/stats.ts", join(ROOT, "bench/implementations/registry.ts"))).toBeNull();
    expect(await resolveId("../streams/index.ts", join(ROOT, "src/numbers/line-to-number-stream.ts"))).toBeNull();
    expect(await resolveId("vitest", undefined)).toBeNull();
  });
});
