/**
 * ReadableStreamTee, ReadableStreamDefaultTee and ReadableByteStreamTee (WHATWG Streams §4.9.1).
 * @module
 */

import { Deferred, queueMicrotaskInternal, uponRejection } from "../base/promise-helpers.ts";
import { type ArrayBufferViewLike, cloneAsUint8Array } from "../standard/array-buffer-helpers.ts";
import {
  ReadableByteStreamController,
  ReadableByteStreamControllerClose,
  ReadableByteStreamControllerEnqueue,
  ReadableByteStreamControllerError,
  ReadableByteStreamControllerGetBYOBRequest,
  ReadableByteStreamControllerRespond,
  ReadableByteStreamControllerRespondWithNewView,
} from "./readable-byte-stream-controller.ts";
import {
  AcquireReadableStreamBYOBReader,
  AcquireReadableStreamDefaultReader,
  CreateReadableByteStream,
  CreateReadableStream,
  type ReadableStream,
  ReadableStreamCancel,
} from "./readable-stream.ts";
import {
  ReadableStreamBYOBReader,
  ReadableStreamBYOBReaderRead,
  ReadableStreamBYOBReaderRelease,
  type ReadIntoRequest,
} from "./readable-stream-byob-reader.ts";
import {
  type ReadableStreamDefaultController,
  ReadableStreamDefaultControllerClose,
  ReadableStreamDefaultControllerEnqueue,
  ReadableStreamDefaultControllerError,
} from "./readable-stream-default-controller.ts";
import {
  ReadableStreamDefaultReader,
  ReadableStreamDefaultReaderRead,
  ReadableStreamDefaultReaderRelease,
  type ReadRequest,
} from "./readable-stream-default-reader.ts";

/** Implements {@link https://streams.spec.whatwg.org/#readable-stream-tee | ReadableStreamTee}: splits `stream` into two branches. */
export function ReadableStreamTee<R>(
  stream: ReadableStream<R>,
  cloneForBranch2: boolean,
): [ReadableStream<R>, ReadableStream<R>] {
  if (stream._readableStreamController instanceof ReadableByteStreamController) {
    return ReadableByteStreamTee(stream as unknown as ReadableStream<Uint8Array>) as unknown as [
      ReadableStream<R>,
      ReadableStream<R>,
    ];
  }
  return ReadableStreamDefaultTee(stream, cloneForBranch2);
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaulttee | ReadableStreamDefaultTee}. */
export function ReadableStreamDefaultTee<R>(
  stream: ReadableStream<R>,
  cloneForBranch2: boolean,
): [ReadableStream<R>, ReadableStream<R>] {
  const reader = AcquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgain = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1: unknown;
  let reason2: unknown;
  let branch1: ReadableStream<R> | undefined;
  let branch2: ReadableStream<R> | undefined;
  const cancelPromise = new Deferred<undefined>();
  const controller1 = (): ReadableStreamDefaultController<R> =>
    (branch1 as ReadableStream<R>)._readableStreamController as ReadableStreamDefaultController<R>;
  const controller2 = (): ReadableStreamDefaultController<R> =>
    (branch2 as ReadableStream<R>)._readableStreamController as ReadableStreamDefaultController<R>;

  // The chunk steps' microtask, made once: at most one is pending, since the next read waits for `reading` to
  // clear, which only this microtask does. The chunk waits for it in `readChunk`.
  let readChunk: R | undefined;
  const afterChunk = (): void => {
    const chunk = readChunk as R;
    readChunk = undefined;
    readAgain = false;
    const chunk1 = chunk;
    let chunk2 = chunk;
    if (!canceled2 && cloneForBranch2) {
      try {
        chunk2 = structuredClone(chunk2);
      } catch (cloneError) {
        ReadableStreamDefaultControllerError(controller1(), cloneError);
        ReadableStreamDefaultControllerError(controller2(), cloneError);
        cancelPromise.resolve(ReadableStreamCancel(stream, cloneError));
        return;
      }
    }
    if (!canceled1) ReadableStreamDefaultControllerEnqueue(controller1(), chunk1);
    if (!canceled2) ReadableStreamDefaultControllerEnqueue(controller2(), chunk2);
    reading = false;
    if (readAgain) pullAlgorithm();
  };
  const readRequest: ReadRequest<R> = {
    chunkSteps(chunk) {
      readChunk = chunk;
      queueMicrotaskInternal(afterChunk);
    },
    closeSteps() {
      reading = false;
      if (!canceled1) ReadableStreamDefaultControllerClose(controller1());
      if (!canceled2) ReadableStreamDefaultControllerClose(controller2());
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    },
    errorSteps() {
      reading = false;
    },
  };

  // "A promise resolved with undefined", as the `undefined` completion: the controller reacts a microtask later
  // all the same, without a promise reaction.
  function pullAlgorithm(): undefined {
    if (reading) {
      readAgain = true;
      return undefined;
    }
    reading = true;
    ReadableStreamDefaultReaderRead(reader, readRequest);
    return undefined;
  }

  function cancel1Algorithm(reason: unknown): Promise<undefined> {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) cancelPromise.resolve(ReadableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<undefined> {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) cancelPromise.resolve(ReadableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  }

  const startAlgorithm = (): undefined => undefined;
  branch1 = CreateReadableStream<R>(startAlgorithm, pullAlgorithm, cancel1Algorithm);
  branch2 = CreateReadableStream<R>(startAlgorithm, pullAlgorithm, cancel2Algorithm);
  uponRejection(reader._closedPromise.promise, (r) => {
    ReadableStreamDefaultControllerError(controller1(), r);
    ReadableStreamDefaultControllerError(controller2(), r);
    if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
  });
  return [branch1, branch2];
}

/** Implements {@link https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamtee | ReadableByteStreamTee}. */
export function ReadableByteStreamTee(
  stream: ReadableStream<Uint8Array>,
): [ReadableStream<Uint8Array>, ReadableStream<Uint8Array>] {
  let reader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader =
    AcquireReadableStreamDefaultReader(stream);
  let reading = false;
  let readAgainForBranch1 = false;
  let readAgainForBranch2 = false;
  let canceled1 = false;
  let canceled2 = false;
  let reason1: unknown;
  let reason2: unknown;
  let branch1: ReadableStream<Uint8Array> | undefined;
  let branch2: ReadableStream<Uint8Array> | undefined;
  const cancelPromise = new Deferred<undefined>();
  const controllerOf = (branch: ReadableStream<Uint8Array> | undefined): ReadableByteStreamController =>
    (branch as ReadableStream<Uint8Array>)._readableStreamController as ReadableByteStreamController;

  function forwardReaderError(thisReader: ReadableStreamDefaultReader<Uint8Array> | ReadableStreamBYOBReader): void {
    uponRejection(thisReader._closedPromise.promise, (r) => {
      if (thisReader !== reader) return;
      ReadableByteStreamControllerError(controllerOf(branch1), r);
      ReadableByteStreamControllerError(controllerOf(branch2), r);
      if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
    });
  }

  function pullWithDefaultReader(): void {
    if (reader instanceof ReadableStreamBYOBReader) {
      ReadableStreamBYOBReaderRelease(reader);
      reader = AcquireReadableStreamDefaultReader(stream);
      forwardReaderError(reader);
    }
    const readRequest: ReadRequest<Uint8Array> = {
      chunkSteps(chunk) {
        queueMicrotaskInternal(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const chunk1 = chunk;
          let chunk2: ArrayBufferViewLike = chunk as Uint8Array<ArrayBuffer>;
          if (!canceled1 && !canceled2) {
            try {
              chunk2 = cloneAsUint8Array(chunk as Uint8Array<ArrayBuffer>);
            } catch (cloneError) {
              ReadableByteStreamControllerError(controllerOf(branch1), cloneError);
              ReadableByteStreamControllerError(controllerOf(branch2), cloneError);
              cancelPromise.resolve(ReadableStreamCancel(stream, cloneError));
              return;
            }
          }
          if (!canceled1) ReadableByteStreamControllerEnqueue(controllerOf(branch1), chunk1 as ArrayBufferViewLike);
          if (!canceled2) ReadableByteStreamControllerEnqueue(controllerOf(branch2), chunk2);
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      closeSteps() {
        reading = false;
        if (!canceled1) ReadableByteStreamControllerClose(controllerOf(branch1));
        if (!canceled2) ReadableByteStreamControllerClose(controllerOf(branch2));
        if (controllerOf(branch1)._pendingPullIntos.length > 0)
          ReadableByteStreamControllerRespond(controllerOf(branch1), 0);
        if (controllerOf(branch2)._pendingPullIntos.length > 0)
          ReadableByteStreamControllerRespond(controllerOf(branch2), 0);
        if (!canceled1 || !canceled2) cancelPromise.resolve(undefined);
      },
      errorSteps() {
        reading = false;
      },
    };
    ReadableStreamDefaultReaderRead(reader as ReadableStreamDefaultReader<Uint8Array>, readRequest);
  }

  function pullWithBYOBReader(view: ArrayBufferViewLike, forBranch2: boolean): void {
    if (reader instanceof ReadableStreamDefaultReader) {
      ReadableStreamDefaultReaderRelease(reader);
      reader = AcquireReadableStreamBYOBReader(stream);
      forwardReaderError(reader);
    }
    const byobBranch = forBranch2 ? branch2 : branch1;
    const otherBranch = forBranch2 ? branch1 : branch2;
    const readIntoRequest: ReadIntoRequest = {
      chunkSteps(chunk) {
        queueMicrotaskInternal(() => {
          readAgainForBranch1 = false;
          readAgainForBranch2 = false;
          const byobCanceled = forBranch2 ? canceled2 : canceled1;
          const otherCanceled = forBranch2 ? canceled1 : canceled2;
          if (!otherCanceled) {
            let clonedChunk: Uint8Array<ArrayBuffer>;
            try {
              clonedChunk = cloneAsUint8Array(chunk);
            } catch (cloneError) {
              ReadableByteStreamControllerError(controllerOf(byobBranch), cloneError);
              ReadableByteStreamControllerError(controllerOf(otherBranch), cloneError);
              cancelPromise.resolve(ReadableStreamCancel(stream, cloneError));
              return;
            }
            if (!byobCanceled) ReadableByteStreamControllerRespondWithNewView(controllerOf(byobBranch), chunk);
            ReadableByteStreamControllerEnqueue(controllerOf(otherBranch), clonedChunk);
          } else if (!byobCanceled) {
            ReadableByteStreamControllerRespondWithNewView(controllerOf(byobBranch), chunk);
          }
          reading = false;
          if (readAgainForBranch1) pull1Algorithm();
          else if (readAgainForBranch2) pull2Algorithm();
        });
      },
      closeSteps(chunk) {
        reading = false;
        const byobCanceled = forBranch2 ? canceled2 : canceled1;
        const otherCanceled = forBranch2 ? canceled1 : canceled2;
        if (!byobCanceled) ReadableByteStreamControllerClose(controllerOf(byobBranch));
        if (!otherCanceled) ReadableByteStreamControllerClose(controllerOf(otherBranch));
        if (chunk !== undefined) {
          if (!byobCanceled) ReadableByteStreamControllerRespondWithNewView(controllerOf(byobBranch), chunk);
          if (!otherCanceled && controllerOf(otherBranch)._pendingPullIntos.length > 0) {
            ReadableByteStreamControllerRespond(controllerOf(otherBranch), 0);
          }
        }
        if (!byobCanceled || !otherCanceled) cancelPromise.resolve(undefined);
      },
      errorSteps() {
        reading = false;
      },
    };
    ReadableStreamBYOBReaderRead(reader as ReadableStreamBYOBReader, view, 1, readIntoRequest);
  }

  function pull1Algorithm(): undefined {
    if (reading) {
      readAgainForBranch1 = true;
      return undefined;
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(controllerOf(branch1));
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(byobRequest._view as Uint8Array<ArrayBuffer>, false);
    return undefined;
  }

  function pull2Algorithm(): undefined {
    if (reading) {
      readAgainForBranch2 = true;
      return undefined;
    }
    reading = true;
    const byobRequest = ReadableByteStreamControllerGetBYOBRequest(controllerOf(branch2));
    if (byobRequest === null) pullWithDefaultReader();
    else pullWithBYOBReader(byobRequest._view as Uint8Array<ArrayBuffer>, true);
    return undefined;
  }

  function cancel1Algorithm(reason: unknown): Promise<undefined> {
    canceled1 = true;
    reason1 = reason;
    if (canceled2) cancelPromise.resolve(ReadableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  }

  function cancel2Algorithm(reason: unknown): Promise<undefined> {
    canceled2 = true;
    reason2 = reason;
    if (canceled1) cancelPromise.resolve(ReadableStreamCancel(stream, [reason1, reason2]));
    return cancelPromise.promise;
  }

  const startAlgorithm = (): undefined => undefined;
  branch1 = CreateReadableByteStream(startAlgorithm, pull1Algorithm, cancel1Algorithm);
  branch2 = CreateReadableByteStream(startAlgorithm, pull2Algorithm, cancel2Algorithm);
  forwardReaderError(reader);
  return [branch1, branch2];
}
