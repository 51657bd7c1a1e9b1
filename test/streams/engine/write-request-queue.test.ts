import { describe, expect, test } from "vitest";
import type { WriteRequest } from "../../../src/streams/engine/writable-stream.ts";
import { type RunWriteRequest, WriteRequestQueue } from "../../../src/streams/engine/write-request-queue.ts";

function recorder(name: string, log: string[]): WriteRequest {
  return {
    resolve: () => log.push(`${name} resolved`),
    reject: (reason) => log.push(`${name} rejected ${String(reason)}`),
  };
}

function runRecorder(name: string, log: string[]): RunWriteRequest {
  return {
    ...recorder(name, log),
    resolveMany: (count) => log.push(`${name} resolved x${count}`),
    rejectMany: (count, reason) => log.push(`${name} rejected x${count} ${String(reason)}`),
  };
}

describe("WriteRequestQueue", () => {
  test("counts every write of a run and shifts them one at a time, in order", () => {
    const log: string[] = [];
    const a = recorder("a", log);
    const b = recorder("b", log);
    const queue = new WriteRequestQueue();
    queue.push(a);
    queue.pushRun(b, 3);
    queue.push(b);
    expect(queue.length).toBe(5);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([a, b, b]);
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift()]).toEqual([b, b]);
    expect(queue.length).toBe(0);
  });

  test("a taken batch settles each covered write once, oldest first, a run in one call when it can", () => {
    const log: string[] = [];
    const plain = recorder("plain", log);
    const pipe = runRecorder("pipe", log);
    const queue = new WriteRequestQueue();
    queue.push(plain);
    queue.pushRun(pipe, 4);
    queue.push(plain);
    const batch = queue.takeRuns(3);
    expect(queue.length).toBe(3);
    batch.resolve();
    expect(log).toEqual(["plain resolved", "pipe resolved x2"]);
    log.length = 0;
    queue.takeRuns(3).reject("boom");
    expect(log).toEqual(["pipe rejected x2 boom", "plain rejected boom"]);
    expect(queue.length).toBe(0);
  });

  test("rejectAll rejects every queued write in order and empties the queue", () => {
    const log: string[] = [];
    const queue = new WriteRequestQueue();
    const plain = recorder("plain", log);
    queue.pushRun(plain, 2);
    queue.pushRun(runRecorder("pipe", log), 3);
    queue.rejectAll("gone");
    expect(log).toEqual(["plain rejected gone", "plain rejected gone", "pipe rejected x3 gone"]);
    expect(queue.length).toBe(0);
    queue.push(plain);
    expect(queue.shift()).toBe(plain);
  });

  test("keeps order across many runs and compactions", () => {
    const queue = new WriteRequestQueue();
    const requests = Array.from({ length: 3000 }, (_, i) => recorder(String(i), []));
    const out: WriteRequest[] = [];
    for (let i = 0; i < requests.length; i++) {
      queue.pushRun(requests[i]!, 2);
      if (i % 3 === 2) for (let k = 0; k < 4; k++) out.push(queue.shift());
    }
    while (queue.length > 0) out.push(queue.shift());
    expect(out).toEqual(requests.flatMap((request) => [request, request]));
  });
});
