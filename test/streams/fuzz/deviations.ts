/**
 * Where Node 24's streams depart from the standard, and how the fuzzer recognises it. A program whose native run
 * shows one of these says nothing about drainpipe, and is set aside (counted, never compared). Each entry names the
 * standard's step that decides the case; drainpipe follows the standard in every one of them.
 *
 * Two more departures are kept out of the programs instead of detected:
 * - Node reacts to a native promise returned by an underlying source, sink or transformer callback directly, where
 *   WebIDL converts the returned value into a new promise ("converted to an IDL value" of type `Promise<undefined>`:
 *   NewPromiseCapability, then Call its [[Resolve]] with the value), which adopts a native promise two jobs later.
 *   Callbacks that complete later return a thenable, which both adopt the same way (see `interpreter.ts`).
 * - Node's async iterator `next()` does not perform ReadableStreamDefaultReaderRead synchronously (the standard's
 *   "get the next iteration result" steps do, inside the WebIDL asynchronous iterator's `next()` when no call is
 *   ongoing): programs that use an async iterator are compared at rest (see `compare.ts`), with callbacks that
 *   complete at once (see `generators.ts`).
 *
 * Other differences are refereed (see `compare.ts`): set aside only when the reference implementation
 * (web-streams-polyfill) agrees with drainpipe, and counted by kind. One kind analysed so far: Node's pipe reads
 * from the source once before it notices a destination already errored, where ReadableStreamPipeTo must not read
 * while WritableStreamDefaultWriterGetDesiredSize is null and propagates the error backward first.
 * @module
 */

/** A departure of Node's from the standard that a native run can show. */
export interface Deviation {
  /** Short name, used in logs and counts. */
  name: string;
  /** What Node does, and the standard's step that says otherwise. */
  standard: string;
  /** Whether `error` (thrown, rejected with or uncaught in the native run) is this departure showing. */
  matches(error: unknown): boolean;
}

function isInternalAssertion(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === "ERR_INTERNAL_ASSERTION";
}

/** Node's known departures. */
export const nodeDeviations: Deviation[] = [
  {
    name: "write after close asserts",
    standard:
      "writer.write() on a stream whose close has completed throws ERR_INTERNAL_ASSERTION in Node (or an assertion " +
      "fails sizing a chunk while a close is in flight, nodejs/node#57272); WritableStreamDefaultWriterWrite " +
      "returns a promise rejected with a TypeError when WritableStreamCloseQueuedOrInFlight is true or state " +
      'is "closed"',
    matches: (error) => isInternalAssertion(error) && /writ/i.test((error as Error).stack ?? ""),
  },
  {
    name: "byte tee respondWithNewView asserts",
    standard:
      "Under a byte-stream tee with BYOB branches Node can fail an assertion in " +
      "readableByteStreamControllerRespondWithNewView; ReadableByteStreamControllerRespondWithNewView and " +
      "ReadableByteStreamTee's pullWithBYOBReader define every step there",
    matches: (error) => isInternalAssertion(error),
  },
  {
    name: "cancel after terminate throws",
    standard:
      "Cancelling a terminated TransformStream's readable side (still closing with chunks queued) throws in Node: " +
      "TransformStreamDefaultSourceCancelAlgorithm performs [[cancelAlgorithm]], which " +
      "TransformStreamDefaultControllerTerminate has cleared (a hole in the standard, whose [[finishPromise]] guard " +
      "does not cover it); drainpipe resolves the cancel there",
    matches: (error) => error instanceof TypeError && /cancelAlgorithm is not a function/.test(error.message),
  },
  {
    name: "transform writeContinuation crash",
    standard:
      "Node queues a parked write's continuation each time a transform stream's backpressure turns off, and the " +
      "second run throws uncaught; TransformStreamDefaultSinkWriteAlgorithm reacts once to " +
      "[[backpressureChangePromise]]",
    matches: (error) =>
      error instanceof TypeError &&
      /writeContinuation/.test(error.stack ?? "") &&
      /webstreams\/transformstream/.test(error.stack ?? ""),
  },
];

/** The first known departure among `errors`, if any. */
export function findDeviation(errors: unknown[]): Deviation | undefined {
  for (const deviation of nodeDeviations) {
    if (errors.some((error) => deviation.matches(error))) return deviation;
  }
  return undefined;
}
