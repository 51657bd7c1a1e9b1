import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type * as Streams from "../../src/streams/index.ts";

/**
 * drainpipe as wrangler bundles it: esbuild with `keepNames` (wrangler's default), which gives every function a
 * named binding or field holds a `name` property through a `__name` helper, one property definition per function
 * made. The helper here also counts its calls in `globalThis.__keptNames`.
 */
async function bundleKeepingNames(outfile: string): Promise<void> {
  const result = await build({
    entryPoints: [join(import.meta.dirname, "../../src/streams/index.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    keepNames: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  const helper = /var __name = \(target, value\) => __defProp\(target, "name", \{ value, configurable: true \}\);/;
  if (!helper.test(code)) throw new Error("Cannot count kept names: esbuild's __name helper has changed");
  writeFileSync(
    outfile,
    code.replace(
      helper,
      "var __name = (target, value) => " +
        '(globalThis.__keptNames += 1, __defProp(target, "name", { value, configurable: true }));',
    ),
  );
}

const counter = globalThis as unknown as { __keptNames: number };
let directory: string;
let streams: typeof Streams;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "kept-names-"));
  const outfile = join(directory, "streams.js");
  await bundleKeepingNames(outfile);
  counter.__keptNames = 0;
  streams = (await import(pathToFileURL(outfile).href)) as typeof Streams;
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** How many functions `run(size)` names, for `size` and twice `size`: the difference is the cost per unit. */
async function namedPer(size: number, run: (size: number) => Promise<unknown>): Promise<number> {
  counter.__keptNames = 0;
  await run(size);
  const once = counter.__keptNames;
  counter.__keptNames = 0;
  await run(2 * size);
  return (counter.__keptNames - once) / size;
}

describe("in a bundle that keeps names, no function is named per chunk, per pipe or per ReadableStream.from", () => {
  test("for await over ReadableStream.from(array)", async () => {
    const perChunk = await namedPer(200, async (size) => {
      let total = 0;
      const source = Array.from({ length: size }, (_, index) => index);
      for await (const value of streams.ReadableStream.from(source)) total += value;
      expect(total).toBe((size * (size - 1)) / 2);
    });
    expect(perChunk).toBe(0);
  });

  test("ReadableStream.from over sync and async iterables, read to the end", async () => {
    const perStream = await namedPer(20, async (streamCount) => {
      for (let index = 0; index < streamCount; index++) {
        const chunks: number[] = [];
        const reader = streams.ReadableStream.from([1, 2]).getReader();
        for (let result = await reader.read(); !result.done; result = await reader.read()) chunks.push(result.value);
        const generated = streams.ReadableStream.from(
          (async function* () {
            yield 3;
          })(),
        );
        for await (const chunk of generated) chunks.push(chunk);
        expect(chunks).toEqual([1, 2, 3]);
      }
    });
    expect(perStream).toBe(0);
  });

  test("for await over a pull source with no queue (every chunk waits for a read)", async () => {
    const perChunk = await namedPer(200, async (size) => {
      let next = 0;
      const stream = new streams.ReadableStream<number>(
        {
          pull(controller) {
            controller.enqueue(next++);
            if (next === size) controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      let count = 0;
      for await (const _ of stream) count++;
      expect(count).toBe(size);
    });
    expect(perChunk).toBe(0);
  });

  test("pipeTo aborted by its signal midway", async () => {
    const perPipe = await namedPer(20, async (pipes) => {
      for (let pipe = 0; pipe < pipes; pipe++) {
        const controller = new AbortController();
        let next = 0;
        const source = new streams.ReadableStream<number>({
          pull(readable) {
            readable.enqueue(next++);
          },
        });
        const sink = new streams.WritableStream<number>({
          write(chunk) {
            if (chunk === 9) controller.abort();
          },
        });
        await expect(source.pipeTo(sink, { signal: controller.signal })).rejects.toThrow();
      }
    });
    expect(perPipe).toBe(0);
  });
});
