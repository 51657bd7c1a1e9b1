/**
 * Ctrl-C during `upload`: the first one cancels the upload (the worker removes what it wrote), unless the whole
 * file is already sent, when the upload goes on to its end; a second one exits at once.
 *
 * @module
 */
import { type Interruption, listenForInterrupt } from "../interrupt.ts";
import { invocation } from "../invocation.ts";

/**
 * Listens for Ctrl-C during an upload until disposed (see {@linkcode listenForInterrupt}); a forced exit says what
 * becomes of what the upload wrote.
 *
 * @example
 * ```ts
 * declare const send: (signal: AbortSignal) => Promise<void>;
 * const interruption = listenForUploadInterrupt();
 * try {
 *   await send(interruption.signal);
 * } finally {
 *   interruption.dispose();
 * }
 * ```
 */
export function listenForUploadInterrupt(): Interruption {
  return listenForInterrupt(
    "drainpipe: forced exit; the worker removes what the upload wrote once its lease ends " +
      `(or run ${invocation()} sweep)`,
  );
}

/**
 * Says that the whole file is sent: from now on a first Ctrl-C lets the worker finish storing it, and says so.
 *
 * @example
 * ```ts
 * const interruption = listenForUploadInterrupt();
 * allSent(interruption);
 * interruption.dispose();
 * ```
 */
export function allSent(interruption: Interruption): void {
  interruption.finishing(
    "drainpipe: the whole file is sent; letting the worker finish storing it (Ctrl-C again to exit at once)",
  );
}
