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
  /**
   * Says that the work is past the point where stopping would undo it (everything is sent; what is left is the
   * worker's answer): from now on the first Ctrl-C prints `message` and lets the work finish instead of aborting
   * it; a second one still exits at once.
   */
  finishing(message: string): void;
  /** Stops listening for SIGINT. */
  dispose(): void;
}

/**
 * Listens for Ctrl-C until disposed. The first SIGINT aborts the signal (unless the work is
 * {@linkcode Interruption.finishing}); at the second it prints `forcedMessage` and exits with
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
  let finishingMessage: string | undefined;
  let interrupted = false;
  const onSigint = (): void => {
    if (!interrupted) {
      interrupted = true;
      if (finishingMessage === undefined) controller.abort(new Error("interrupted (Ctrl-C)"));
      else process.stderr.write(`\n${finishingMessage}\n`);
      return;
    }
    process.stderr.write(`\n${forcedMessage}\n`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.on("SIGINT", onSigint);
  return {
    signal: controller.signal,
    finishing: (message) => {
      finishingMessage = message;
    },
    dispose: () => process.off("SIGINT", onSigint),
  };
}
