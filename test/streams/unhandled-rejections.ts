/**
 * Collecting the rejections Node reports as unhandled, for tests of promises the standard marks as handled.
 * @module
 */

/**
 * Runs `work` with the process's `unhandledRejection` listeners set aside, lets the microtasks and a timer turn it
 * queues settle, and returns the reasons Node reported as unhandled meanwhile.
 */
export async function unhandledRejectionsOf(work: () => void): Promise<unknown[]> {
  const reported: unknown[] = [];
  const listeners = process.listeners("unhandledRejection");
  process.removeAllListeners("unhandledRejection");
  const record = (reason: unknown) => reported.push(reason);
  process.on("unhandledRejection", record);
  try {
    work();
    await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    process.off("unhandledRejection", record);
    for (const listener of listeners) process.on("unhandledRejection", listener);
  }
  return reported;
}
