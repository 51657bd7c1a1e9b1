import { describe, expect, test } from "vitest";
import { readHead } from "../../src/cli/stream-head.ts";

const encoder = new TextEncoder();

/** A stream of the given texts, one chunk each, that records how many were pulled and whether it was cancelled. */
function source(texts: readonly string[], options: { open?: boolean } = {}) {
  const seen = { pulled: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled < texts.length) controller.enqueue(encoder.encode(texts[seen.pulled++]));
        else if (!options.open) controller.close();
        else return new Promise<void>(() => {}); // a pipe that stays open
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("readHead", () => {
  test("says how many bytes it holds after each chunk it reads ahead, and no more once it returned", async () => {
    const { stream } = source(["12\n", "345\n", "6\n", "78\n"]);
    const counts: number[] = [];
    const head = await readHead(stream, 5, undefined, (bytes) => counts.push(bytes));
    expect(counts).toEqual([3, 7]);
    expect(await text(head.stream)).toBe("12\n345\n6\n78\n");
    expect(counts).toEqual([3, 7]);
  });

  test("a stream that ends within the limit: ended, its size, and every byte again", async () => {
    const { stream } = source(["12\n", "345\n"]);
    const head = await readHead(stream, 7);
    expect(head).toMatchObject({ bytes: 7, ended: true });
    expect(await text(head.stream)).toBe("12\n345\n");
    expect(head.again).toBeDefined();
    expect(await text(head.again!())).toBe("12\n345\n");
    expect(await text(head.again!())).toBe("12\n345\n");
  });

  test("stops reading once past the limit; the whole stream is the head, then the rest", async () => {
    const { stream, seen } = source(["12\n", "345\n", "6789\n", "0\n"]);
    const head = await readHead(stream, 6);
    expect(head).toMatchObject({ bytes: 7, ended: false });
    expect(seen.pulled).toBe(2);
    expect(await text(head.stream)).toBe("12\n345\n6789\n0\n");
    expect(head.again).toBeUndefined();
  });

  test("an abort while the source stays open cancels it and rejects with the reason", async () => {
    const { stream, seen } = source(["12\n"], { open: true });
    const controller = new AbortController();
    const head = readHead(stream, 100, controller.signal);
    const reason = new Error("interrupted (Ctrl-C)");
    setTimeout(() => controller.abort(reason), 10);
    await expect(head).rejects.toBe(reason);
    expect(seen.cancelled).toBe(reason);
  });

  test("an abort after the head errors the rest of the stream and cancels the source", async () => {
    const { stream, seen } = source(["12\n", "345\n"], { open: true });
    const controller = new AbortController();
    const head = await readHead(stream, 2, controller.signal);
    expect(head.ended).toBe(false);
    const reader = head.stream.getReader();
    expect(await reader.read()).toMatchObject({ done: false });
    expect(await reader.read()).toMatchObject({ done: false });
    const pending = reader.read();
    const reason = new Error("interrupted (Ctrl-C)");
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seen.cancelled).toBe(reason);
  });
});
