import { env } from "cloudflare:workers";
import { describe, expect, test } from "vitest";
import { collectBytes } from "../../src/streams/adapters/collect-bytes.ts";
import { fromNativeStream } from "../../src/streams/adapters/from-native.ts";
import { toFixedLengthNativeStream, toNativeStream } from "../../src/streams/adapters/to-native.ts";
import { ReadableStream as DrainpipeReadableStream } from "../../src/streams/index.ts";
import { smokeChecks } from "./smoke-checks.ts";

const MiB = 1024 * 1024;

function pattern(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 13) % 256;
  return bytes;
}

function drainpipeOf(bytes: Uint8Array, chunkSize: number): DrainpipeReadableStream<Uint8Array> {
  let offset = 0;
  return new DrainpipeReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}

async function chunksOf(stream: DrainpipeReadableStream<Uint8Array>): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function joined(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

describe("runtime smoke checks on workerd", () => {
  for (const { name, run } of smokeChecks) {
    test(name, async () => {
      await expect(run()).resolves.toBeUndefined();
    });
  }
});

describe("native adapters on workerd", () => {
  test("fromNativeStream reads a request body 1 MiB at a time, tail included", async () => {
    const bytes = pattern(2.5 * MiB + 3);
    const request = new Request("https://drainpipe.test/upload", { method: "POST", body: bytes });
    const chunks = await chunksOf(fromNativeStream(request.body!));
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([MiB, MiB, MiB / 2 + 3]);
    expect(joined(chunks)).toEqual(bytes);
  });

  test("cancelling the adapted stream cancels a workerd byte stream with the same reason", async () => {
    const reasons: unknown[] = [];
    const native = new ReadableStream({
      type: "bytes",
      pull(controller) {
        controller.enqueue(new Uint8Array(64 * 1024));
      },
      cancel: (reason) => void reasons.push(reason),
    });
    const reader = fromNativeStream(native, { readSize: 256 * 1024 }).getReader();
    expect((await reader.read()).value!.byteLength).toBe(256 * 1024);
    await reader.cancel("done early");
    expect(reasons).toEqual(["done early"]);
  });

  test("an error of a workerd stream reaches the adapted stream", async () => {
    const native = new ReadableStream({
      type: "bytes",
      pull(controller) {
        controller.error(new RangeError("upstream broke"));
      },
    });
    await expect(fromNativeStream(native).getReader().read()).rejects.toThrow("upstream broke");
  });

  test("R2 put takes toFixedLengthNativeStream, but not a plain native stream of unknown length", async () => {
    const bytes = pattern(3 * MiB + 17);
    await env.BUCKET.put("smoke/fixed", toFixedLengthNativeStream(drainpipeOf(bytes, 100_000), bytes.byteLength));
    const stored = await env.BUCKET.get("smoke/fixed");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
    await expect(env.BUCKET.put("smoke/plain", toNativeStream(drainpipeOf(bytes, 100_000)))).rejects.toThrow(
      /known length/,
    );
  });

  test("a FixedLengthStream errors when the stream is shorter than declared", async () => {
    const native = toFixedLengthNativeStream(drainpipeOf(pattern(1000), 100), 1001);
    await expect(new Response(native).arrayBuffer()).rejects.toThrow();
  });

  test("collectBytes gives an R2 multipart upload a part of unknown length", async () => {
    const bytes = pattern(MiB + 5);
    const upload = await env.BUCKET.createMultipartUpload("smoke/multipart");
    const part = await upload.uploadPart(1, await collectBytes(drainpipeOf(bytes, 65_536), 5 * MiB));
    await upload.complete([part]);
    const stored = await env.BUCKET.get("smoke/multipart");
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(bytes);
  });

  test("toNativeStream makes a Response body", async () => {
    const bytes = pattern(200_000);
    const response = new Response(toNativeStream(drainpipeOf(bytes, 4096)));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });
});

describe("host crossings on workerd", () => {
  test("a drainpipe stream pipes through IdentityTransformStream and FixedLengthStream", async () => {
    const bytes = pattern(300_000);
    const identity = drainpipeOf(bytes, 10_000).pipeThrough(new IdentityTransformStream());
    expect(new Uint8Array(await new Response(identity).arrayBuffer())).toEqual(bytes);
    const fixed = drainpipeOf(bytes, 10_000).pipeThrough(new FixedLengthStream(bytes.byteLength));
    const response = new Response(fixed);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
  });

  test("FixedLengthStream errors when the drainpipe stream is shorter than declared", async () => {
    const short = drainpipeOf(pattern(1000), 100).pipeThrough(new FixedLengthStream(2000));
    await expect(new Response(short).arrayBuffer()).rejects.toThrow();
  });
});
