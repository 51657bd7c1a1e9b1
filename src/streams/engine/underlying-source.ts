/**
 * The `UnderlyingSource` dictionary: its types and its WebIDL conversion.
 * @module
 */

import {
  type AnyFunction,
  assertDictionary,
  assertFunction,
  convertDOMString,
  convertEnforceRangeUnsignedLongLong,
} from "../standard/webidl.ts";
import type { ReadableByteStreamController } from "./readable-byte-stream-controller.ts";
import type { ReadableStreamDefaultController } from "./readable-stream-default-controller.ts";

/** Either kind of readable stream controller. */
export type ReadableStreamController<R = unknown> = ReadableStreamDefaultController<R> | ReadableByteStreamController;

/** Called once when the stream is constructed. */
export type UnderlyingSourceStartCallback<R> = (controller: ReadableStreamController<R>) => unknown;
/** Called when the stream wants more data. */
export type UnderlyingSourcePullCallback<R> = (controller: ReadableStreamController<R>) => void | PromiseLike<void>;
/** Called when the consumer cancels the stream. */
export type UnderlyingSourceCancelCallback = (reason?: unknown) => void | PromiseLike<void>;

/** An underlying source of a value stream. */
export interface UnderlyingDefaultSource<R = unknown> {
  /** Sets up the source; may return a promise. */
  start?: (controller: ReadableStreamDefaultController<R>) => unknown;
  /** Produces more data. */
  pull?: (controller: ReadableStreamDefaultController<R>) => void | PromiseLike<void>;
  /** Releases the source's resources. */
  cancel?: UnderlyingSourceCancelCallback;
  /** Must be absent for a value stream. */
  type?: undefined;
}

/** An underlying source of a byte stream. */
export interface UnderlyingByteSource {
  /** Sets up the source; may return a promise. */
  start?: (controller: ReadableByteStreamController) => unknown;
  /** Produces more data. */
  pull?: (controller: ReadableByteStreamController) => void | PromiseLike<void>;
  /** Releases the source's resources. */
  cancel?: UnderlyingSourceCancelCallback;
  /** Marks the source as a byte source. */
  type: "bytes";
  /** When set, default readers get buffers of this size allocated for them. */
  autoAllocateChunkSize?: number;
}

/** Any underlying source. */
export interface UnderlyingSource<R = unknown> {
  /** Sets up the source; may return a promise. */
  start?: UnderlyingSourceStartCallback<R>;
  /** Produces more data. */
  pull?: UnderlyingSourcePullCallback<R>;
  /** Releases the source's resources. */
  cancel?: UnderlyingSourceCancelCallback;
  /** `"bytes"` for a byte source. */
  type?: "bytes" | undefined;
  /** Byte sources only: size of buffers allocated for default readers. */
  autoAllocateChunkSize?: number;
}

/** The converted `UnderlyingSource` dictionary. */
export interface ConvertedUnderlyingSource {
  autoAllocateChunkSize: number | undefined;
  cancel: AnyFunction | undefined;
  pull: AnyFunction | undefined;
  start: AnyFunction | undefined;
  type: "bytes" | undefined;
}

/** Converts an `UnderlyingSource` dictionary, reading each member once in WebIDL (alphabetical) order. */
export function convertUnderlyingSource(value: unknown, context: string): ConvertedUnderlyingSource {
  assertDictionary(value, context);
  const source = value as Record<string, unknown> | null | undefined;
  const rawChunkSize = source?.autoAllocateChunkSize;
  const autoAllocateChunkSize =
    rawChunkSize === undefined
      ? undefined
      : convertEnforceRangeUnsignedLongLong(rawChunkSize, `${context} has member 'autoAllocateChunkSize' that`);
  const cancel = source?.cancel;
  if (cancel !== undefined) assertFunction(cancel, `${context} has member 'cancel' that`);
  const pull = source?.pull;
  if (pull !== undefined) assertFunction(pull, `${context} has member 'pull' that`);
  const start = source?.start;
  if (start !== undefined) assertFunction(start, `${context} has member 'start' that`);
  const type = source?.type;
  let convertedType: "bytes" | undefined;
  if (type !== undefined) {
    const typeString = convertDOMString(type);
    if (typeString !== "bytes") {
      throw new TypeError(`${context} has member 'type' that is not a ReadableStreamType: ${typeString}`);
    }
    convertedType = "bytes";
  }
  return {
    autoAllocateChunkSize,
    cancel,
    pull,
    start,
    type: convertedType,
  };
}
