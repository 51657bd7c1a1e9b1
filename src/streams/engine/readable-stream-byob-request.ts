/**
 * `ReadableStreamBYOBRequest` (WHATWG Streams §4.8): the view a byte source should fill for a pending read.
 * @module
 */

import { assertArrayBufferView, isDetachedBuffer } from "../standard/array-buffer-helpers.ts";
import {
  assertRequiredArgument,
  convertEnforceRangeUnsignedLongLong,
  hasOwnSlot,
  makeEnumerable,
  setToStringTag,
} from "../standard/webidl.ts";
import {
  type ReadableByteStreamController,
  ReadableByteStreamControllerRespond,
  ReadableByteStreamControllerRespondWithNewView,
} from "./readable-byte-stream-controller.ts";

/**
 * A pending read into a buffer: write bytes into `view`, then call `respond(bytesWritten)`.
 * Instances are created by the controller; the constructor throws.
 * @example
 * ```ts
 * declare const controller: ReadableByteStreamController;
 * declare const bytes: Uint8Array;
 * const request = controller.byobRequest;
 * if (request) {
 *   request.view!.set(bytes);
 *   request.respond(bytes.byteLength);
 * }
 * ```
 */
export class ReadableStreamBYOBRequest {
  /** @internal [[controller]] */
  declare _associatedReadableByteStreamController: ReadableByteStreamController | undefined;
  /** @internal [[view]] */
  declare _view: Uint8Array<ArrayBuffer> | null;

  constructor() {
    throw new TypeError("Illegal constructor: ReadableStreamBYOBRequest instances are created by the controller");
  }

  /** The region to fill, or `null` once the request has been answered. */
  get view(): Uint8Array<ArrayBuffer> | null {
    if (!isReadableStreamBYOBRequest(this)) throw requestBrandCheckError("view");
    return this._view;
  }

  /** Reports that `bytesWritten` bytes were written into {@link ReadableStreamBYOBRequest.view}. */
  respond(bytesWritten: number): void {
    if (!isReadableStreamBYOBRequest(this)) throw requestBrandCheckError("respond");
    assertRequiredArgument(bytesWritten, 1, "respond");
    const written = convertEnforceRangeUnsignedLongLong(bytesWritten, "First parameter");
    const controller = this._associatedReadableByteStreamController;
    if (controller === undefined) throw new TypeError("Cannot respond: this BYOB request has already been answered");
    if (isDetachedBuffer((this._view as Uint8Array<ArrayBuffer>).buffer)) {
      throw new TypeError("Cannot respond: the view's buffer has been detached");
    }
    ReadableByteStreamControllerRespond(controller, written);
  }

  /** Answers the request with a different view onto the same (possibly transferred) buffer. */
  respondWithNewView(view: ArrayBufferView<ArrayBuffer>): void {
    if (!isReadableStreamBYOBRequest(this)) throw requestBrandCheckError("respondWithNewView");
    assertRequiredArgument(view, 1, "respondWithNewView");
    assertArrayBufferView(view, "First parameter");
    const controller = this._associatedReadableByteStreamController;
    if (controller === undefined) {
      throw new TypeError("Cannot respond with a new view: this BYOB request has already been answered");
    }
    if (isDetachedBuffer(view.buffer)) {
      throw new TypeError("Cannot respond with a new view: its buffer has been detached");
    }
    ReadableByteStreamControllerRespondWithNewView(controller, view);
  }
}

makeEnumerable(ReadableStreamBYOBRequest, ["view", "respond", "respondWithNewView"]);
setToStringTag(ReadableStreamBYOBRequest, "ReadableStreamBYOBRequest");

function requestBrandCheckError(name: string): TypeError {
  return new TypeError(
    `Cannot use ReadableStreamBYOBRequest.prototype.${name}: receiver is not a ReadableStreamBYOBRequest`,
  );
}

/** Brand check for `ReadableStreamBYOBRequest`. */
export function isReadableStreamBYOBRequest(value: unknown): value is ReadableStreamBYOBRequest {
  return hasOwnSlot(value, "_associatedReadableByteStreamController");
}
