/**
 * Runs asynchronous tasks one at a time, in the order they were queued: what a Durable Object needs around
 * work that awaits I/O, since other calls may run while it waits.
 *
 * @example
 * ```ts
 * const queue = new SerialQueue();
 * const order: number[] = [];
 * await Promise.all([
 *   queue.run(async () => { await new Promise((r) => setTimeout(r, 10)); order.push(1); }),
 *   queue.run(async () => { order.push(2); }),
 * ]);
 * order; // [1, 2]
 * ```
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` once every task queued before it has settled; settles as `task` does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
