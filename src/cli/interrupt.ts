/**
 * Ctrl-C during a long command: the first SIGINT aborts the work (so it can clean up and say what it did), a
 * second one exits at once.
 *
 * @module
 */
import { EXIT_INTERRUPTED } from "./cli-error.ts";

/** An interruption in progress: its signal aborts at the first Ctrl-C. */
export interface Interruption {
  /** Aborted at the first SIGINT. */
  readonly signal: AbortSignal;
  /** Stops listening for SIGINT. */
  dispose(): void;
}

/**
 * Listens for Ctrl-C until disposed. At the second SIGINT it prints `forcedMessage` and exits with
 * {@linkcode EXIT_INTERRUPTED}.
 *
 * @example
 * ```ts
 * declare const work: (signal: AbortSignal) => Promise<void>;
 * const interruption = listenForInterrupt("drainpipe: forced exit");
 * try {
 *   await work(interruption.signal);
 * } finally {
 *   interruption.dispose();
 * }
 * ```
 */
export function listenForInterrupt(forcedMessage: string): Interruption {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (!controller.signal.aborted) {
      controller.abort(new Error("interrupted (Ctrl-C)"));
      return;
    }
    process.stderr.write(`\n${forcedMessage}\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.on("SIGINT", onSigint);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", onSigint) };
}
