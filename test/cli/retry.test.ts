import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { CliError } from "../../src/cli/cli-error.ts";
import { isRetryable, withRetries } from "../../src/cli/retry.ts";
import { WorkerError } from "../../src/cli/worker-error.ts";

const answered = (status: number) => new WorkerError("send", status, { error: "internal", detail: "d" });
const unreachable = () =>
  new CliError("Cannot send: the worker at http://127.0.0.1:8787/ is unreachable (refused)", { code: "unreachable" });

describe("isRetryable", () => {
  test("retries a 5xx answer and a worker that could not be reached or did not answer", () => {
    expect(isRetryable(answered(500))).toBe(true);
    expect(isRetryable(answered(503))).toBe(true);
    expect(isRetryable(unreachable())).toBe(true);
    const noAnswer = new CliError("Cannot send: the worker at http://x/ failed to answer (reset)", {
      code: "no-answer",
    });
    expect(isRetryable(noAnswer)).toBe(true);
  });

  test("never retries a 4xx answer, another CliError or any other error", () => {
    expect(isRetryable(answered(400))).toBe(false);
    expect(isRetryable(answered(409))).toBe(false);
    expect(isRetryable(new CliError(`Cannot read "primes.txt": no such file`, { code: "no-such-file" }))).toBe(false);
    // The code decides, not the words: a message that reads like a network failure is not retried without it.
    expect(isRetryable(new CliError("Cannot send: the worker at http://x/ is unreachable (refused)"))).toBe(false);
    expect(isRetryable(new TypeError("is unreachable"))).toBe(false);
  });
});

describe("withRetries", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A task failing with `errors` in turn, then answering "done"; counts its calls. */
  function failing(...errors: unknown[]) {
    const task = vi.fn(async () => {
      const error = errors.shift();
      if (error !== undefined) throw error;
      return "done";
    });
    return task;
  }

  test("tries again after the first delay, then twice that, until the task succeeds", async () => {
    const task = failing(answered(503), unreachable());
    const onRetry = vi.fn();
    const result = withRetries(task, { firstDelayMs: 100, onRetry });
    await vi.advanceTimersByTimeAsync(99);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toBe("done");
    expect(task).toHaveBeenCalledTimes(3);
    expect(onRetry.mock.calls.map(([error, attempt]) => [(error as Error).name, attempt])).toEqual([
      ["WorkerError", 1],
      ["CliError", 2],
    ]);
  });

  test("throws the last error once the attempts are spent", async () => {
    const errors = [answered(500), answered(502), answered(503)];
    const task = failing(...errors);
    const result = withRetries(task, { attempts: 3, firstDelayMs: 10 });
    const settled = expect(result).rejects.toBe(errors[2]);
    await vi.runAllTimersAsync();
    await settled;
    expect(task).toHaveBeenCalledTimes(3);
  });

  test("throws a 4xx answer at once, without waiting", async () => {
    const error = answered(400);
    const task = failing(error);
    await expect(withRetries(task)).rejects.toBe(error);
    expect(task).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("stops retrying once the signal is aborted: the try under way is the last", async () => {
    const controller = new AbortController();
    const errors = [answered(503), answered(503), answered(503)];
    const task = failing(...errors);
    const result = withRetries(task, { firstDelayMs: 10, signal: controller.signal });
    const settled = expect(result).rejects.toBe(errors[1]);
    await vi.advanceTimersByTimeAsync(5);
    expect(task).toHaveBeenCalledTimes(1);
    controller.abort();
    await vi.runAllTimersAsync();
    await settled;
    expect(task).toHaveBeenCalledTimes(2);
  });

  test("tries five times by default, the first retry after 500 ms", async () => {
    const task = failing(...Array.from({ length: 5 }, () => answered(503)));
    const settled = expect(withRetries(task)).rejects.toBeInstanceOf(WorkerError);
    await vi.advanceTimersByTimeAsync(499);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.runAllTimersAsync();
    await settled;
    expect(task).toHaveBeenCalledTimes(5);
  });
});
