/**
 * A writable stream's [[writeRequests]], stored run-length encoded: consecutive write requests that are the
 * same object (a pipe is the write request of every chunk it writes) take one slot with a count. The queue
 * still holds one entry per queued chunk as far as its users can tell, so the specification's pairing of
 * write requests with queued chunks is unchanged; only moving and settling a run costs one step instead of
 * one per chunk.
 * @module
 */

import type { WriteRequest } from "./writable-stream.ts";

/** A write request that can settle several of its writes in one call (see {@link settleRun}). */
export interface RunWriteRequest extends WriteRequest {
  /** Fulfils `count` writes made with this request. */
  resolveMany(count: number): void;
  /** Rejects `count` writes made with this request. */
  rejectMany(count: number, reason: unknown): void;
}

function isRunWriteRequest(request: WriteRequest): request is RunWriteRequest {
  return typeof (request as Partial<RunWriteRequest>).resolveMany === "function";
}

/** Fulfils (`reason` absent) or rejects `count` writes of `request`, oldest first. */
export function settleRun(request: WriteRequest, count: number, rejected: boolean, reason: unknown): void {
  if (isRunWriteRequest(request)) {
    if (rejected) request.rejectMany(count, reason);
    else request.resolveMany(count);
    return;
  }
  for (let i = 0; i < count; i++) {
    if (rejected) request.reject(reason);
    else request.resolve(undefined);
  }
}

/**
 * The write requests covering a `writev` batch, as runs: settling it settles every covered write, oldest first.
 */
export class WriteRequestRuns implements WriteRequest {
  readonly requests: WriteRequest[] = [];
  readonly counts: number[] = [];

  /** Fulfils every covered write. */
  resolve(): void {
    for (let i = 0; i < this.requests.length; i++) settleRun(this.requests[i]!, this.counts[i]!, false, undefined);
  }

  /** Rejects every covered write. */
  reject(reason: unknown): void {
    for (let i = 0; i < this.requests.length; i++) settleRun(this.requests[i]!, this.counts[i]!, true, reason);
  }
}

const COMPACT_THRESHOLD = 1024;

/**
 * FIFO of write requests, one entry per chunk, with runs of the same request stored once.
 * @example
 * ```ts
 * declare const pipe: RunWriteRequest;
 * const queue = new WriteRequestQueue();
 * queue.pushRun(pipe, 3); // three writes by one pipe: one slot
 * queue.shift(); // pipe (two of its writes remain queued)
 * ```
 */
export class WriteRequestQueue {
  private requests: (WriteRequest | undefined)[] = [];
  private counts: number[] = [];
  private head = 0;
  private tail = 0;
  /** Number of queued write requests (chunks), counting every write of a run. */
  length = 0;

  /** Appends one write request. */
  push(request: WriteRequest): void {
    this.pushRun(request, 1);
  }

  /** Appends `count` writes made with `request` (WritableStreamAddWriteRequest, `count` times). */
  pushRun(request: WriteRequest, count: number): void {
    if (count === 0) return;
    this.length += count;
    const last = this.tail - 1;
    if (last >= this.head && this.requests[last] === request) {
      this.counts[last]! += count;
      return;
    }
    this.requests[this.tail] = request;
    this.counts[this.tail] = count;
    this.tail += 1;
  }

  /** Removes and returns the oldest write request; the queue must not be empty. */
  shift(): WriteRequest {
    const head = this.head;
    const request = this.requests[head] as WriteRequest;
    this.length -= 1;
    const remaining = this.counts[head]! - 1;
    if (remaining > 0) {
      this.counts[head] = remaining;
    } else {
      this.requests[head] = undefined;
      this.advanceHead(head + 1);
    }
    return request;
  }

  /** Removes the `count` oldest write requests (`count` must not exceed `length`), as runs. */
  takeRuns(count: number): WriteRequestRuns {
    const runs = new WriteRequestRuns();
    this.length -= count;
    let head = this.head;
    while (count > 0) {
      const request = this.requests[head] as WriteRequest;
      const available = this.counts[head]!;
      if (available > count) {
        runs.requests.push(request);
        runs.counts.push(count);
        this.counts[head] = available - count;
        break;
      }
      runs.requests.push(request);
      runs.counts.push(available);
      this.requests[head] = undefined;
      head += 1;
      count -= available;
    }
    this.advanceHead(head);
    return runs;
  }

  /** Rejects every queued write request with `reason`, oldest first, and empties the queue. */
  rejectAll(reason: unknown): void {
    const { requests, counts, tail } = this;
    let head = this.head;
    this.requests = [];
    this.counts = [];
    this.head = 0;
    this.tail = 0;
    this.length = 0;
    for (; head < tail; head++) settleRun(requests[head] as WriteRequest, counts[head]!, true, reason);
  }

  private advanceHead(next: number): void {
    const tail = this.tail;
    if (next === tail) {
      this.head = 0;
      this.tail = 0;
    } else if (next >= COMPACT_THRESHOLD && next * 2 >= tail) {
      this.requests.copyWithin(0, next, tail);
      this.requests.fill(undefined, tail - next, tail);
      this.counts.copyWithin(0, next, tail);
      this.tail = tail - next;
      this.head = 0;
    } else {
      this.head = next;
    }
  }
}
