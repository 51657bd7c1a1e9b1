import { describe, expect, test } from "vitest";
import { ReadableStream, type ReadableStreamDefaultReader } from "../../../src/streams/index.ts";

/** How many promise jobs pass before `promise` settles (at most `limit`). */
async function jobsUntilSettled(promise: Promise<unknown>, limit = 20): Promise<number> {
  let settled = false;
  promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  for (let jobs = 0; jobs < limit; jobs++) {
    if (settled) return jobs;
    await undefined;
  }
  return limit;
}

/** A sync iterator over `values` that records each call of `next`. */
function recordedIterator(values: readonly unknown[]) {
  const calls: string[] = [];
  let index = 0;
  const iterable = {
    [Symbol.iterator]() {
      return {
        next() {
          calls.push(`next#${index}`);
          return index < values.length ? { done: false, value: values[index++] } : { done: true, value: undefined };
        },
      };
    },
  };
  return { iterable, calls };
}

describe("ReadableStream.from over a sync iterator", () => {
  test("a value that is not an object is ready for the read that pulled it: one job, no promise per item", async () => {
    const { iterable, calls } = recordedIterator([1, "two", null]);
    const reader = ReadableStream.from(iterable).getReader();
    await undefined; // the start algorithm's job
    for (const expected of [1, "two", null]) {
      const read = reader.read();
      expect(await jobsUntilSettled(read)).toBe(1);
      expect(await read).toEqual({ done: false, value: expected });
      await undefined; // the reaction to the pull's completion, before the next pull may start
    }
    const end = reader.read();
    expect(await jobsUntilSettled(end)).toBe(1);
    expect(await end).toEqual({ done: true, value: undefined });
    expect(calls).toEqual(["next#0", "next#1", "next#2", "next#3"]);
  });

  test("a value that is an object is awaited, as the async-from-sync iterator awaits it", async () => {
    // biome-ignore lint/suspicious/noThenProperty: a thenable value is what this test is about
    const thenable = { then: (resolve: (value: string) => void) => resolve("from then") };
    const values: unknown[] = [thenable, Promise.resolve("resolved"), { plain: true }];
    const reader = ReadableStream.from(values).getReader();
    expect(await reader.read()).toEqual({ done: false, value: "from then" });
    expect(await reader.read()).toEqual({ done: false, value: "resolved" });
    expect(await reader.read()).toEqual({ done: false, value: { plain: true } });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
  });

  test("a rejected promise among the values errors the stream and closes the iterator", async () => {
    const boom = new Error("boom");
    const closed: string[] = [];
    const iterable = {
      [Symbol.iterator]() {
        let index = 0;
        const values = [1, Promise.reject(boom), 3];
        return {
          next: () => ({ done: index >= values.length, value: values[index++] }),
          return: () => {
            closed.push("return");
            return { done: true, value: undefined };
          },
        };
      },
    };
    const reader = ReadableStream.from(iterable).getReader();
    expect(await reader.read()).toEqual({ done: false, value: 1 });
    await expect(reader.read()).rejects.toBe(boom);
    expect(closed).toEqual(["return"]);
  });

  test("next() that throws, or a result that is not an object, errors the stream", async () => {
    const boom = new Error("boom");
    const throwing = {
      [Symbol.iterator]: () => ({
        next: () => {
          throw boom;
        },
      }),
    };
    await expect(ReadableStream.from(throwing).getReader().read()).rejects.toBe(boom);
    const notAnObject = { [Symbol.iterator]: () => ({ next: () => 42 }) } as unknown as Iterable<unknown>;
    await expect(ReadableStream.from(notAnObject).getReader().read()).rejects.toThrow(
      "Cannot iterate: the iterator result is not an object",
    );
  });

  test("a next() that cancels the stream through its reader: the pulled value is dropped, reads end", async () => {
    const log: string[] = [];
    let reader: ReadableStreamDefaultReader<number> | undefined;
    let cancelled: Promise<void> | undefined;
    let index = 0;
    const iterable = {
      [Symbol.iterator]: () => ({
        next: () => {
          log.push(`next#${index}`);
          if (index === 1) cancelled = reader!.cancel("stop").then(() => void log.push("cancelled"));
          return { done: false, value: index++ };
        },
        return: (reason: unknown) => {
          log.push(`return ${String(reason)}`);
          return { done: true, value: undefined };
        },
      }),
    };
    const stream = ReadableStream.from(iterable as Iterable<number>);
    reader = stream.getReader();
    expect(await reader.read()).toEqual({ done: false, value: 0 });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    await cancelled;
    expect(log).toEqual(["next#0", "next#1", "return stop", "cancelled"]);
  });

  test("the done and value of each result are read once, in that order", async () => {
    const reads: string[] = [];
    let index = 0;
    const iterable = {
      [Symbol.iterator]: () => ({
        next: () => ({
          get done() {
            reads.push(`done#${index}`);
            return index === 2;
          },
          get value() {
            reads.push(`value#${index}`);
            return index++;
          },
        }),
      }),
    };
    const chunks: unknown[] = [];
    for await (const chunk of ReadableStream.from(iterable)) chunks.push(chunk);
    expect(chunks).toEqual([0, 1]);
    expect(reads).toEqual(["done#0", "value#0", "done#1", "value#1", "done#2", "value#2"]);
  });
});

describe("ReadableStream.from's argument (whatwg/streams#1372: Web IDL async_sequence)", () => {
  test.each([
    ["a string", "ab"],
    ["an empty string", ""],
    ["a number", 42],
    ["a boolean", true],
    ["a symbol", Symbol("s")],
    ["a bigint", 1n],
    ["null", null],
    ["undefined", undefined],
  ])("%s is a TypeError, although a string is iterable", (_label, value) => {
    expect(() => ReadableStream.from(value as never)).toThrow(TypeError);
  });

  test("a String object is an object, so it is iterated by code point", async () => {
    const reader = ReadableStream.from(new String("a😀") as unknown as Iterable<string>).getReader();
    expect(await reader.read()).toEqual({ value: "a", done: false });
    expect(await reader.read()).toEqual({ value: "😀", done: false });
    expect(await reader.read()).toEqual({ value: undefined, done: true });
  });

  test("a function with Symbol.iterator is an object, so it is accepted", async () => {
    const iterable = Object.assign(() => 0, {
      *[Symbol.iterator]() {
        yield 1;
      },
    });
    const reader = ReadableStream.from(iterable).getReader();
    expect(await reader.read()).toEqual({ value: 1, done: false });
  });
});
