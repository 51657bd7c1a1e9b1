/**
 * ArrayBuffer operations the byte stream machinery needs: detaching by transfer, detection of detached
 * buffers, copying and cloning, on runtimes with or without `ArrayBuffer.prototype.transfer`.
 * @module
 */

interface TransferableArrayBuffer extends ArrayBuffer {
  transfer?: () => ArrayBuffer;
  readonly detached?: boolean;
}

const nativeTransfer = (ArrayBuffer.prototype as TransferableArrayBuffer).transfer;
const detachedGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "detached")?.get;
const byteLengthGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength")?.get as (
  this: ArrayBuffer,
) => number;

/** Any typed array or `DataView`. */
export type ArrayBufferViewLike = ArrayBufferView<ArrayBuffer>;

/** Constructor of a typed array or `DataView`, used to build views of the same type as the caller's. */
export type ArrayBufferViewConstructor = new (
  buffer: ArrayBuffer,
  byteOffset: number,
  length: number,
) => ArrayBufferViewLike;

/** IsDetachedBuffer: true when `buffer` has been detached (transferred away). */
export function isDetachedBuffer(buffer: ArrayBuffer): boolean {
  if (detachedGetter !== undefined) {
    return detachedGetter.call(buffer) as boolean;
  }
  if (byteLengthGetter.call(buffer) !== 0) return false;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/**
 * TransferArrayBuffer: detaches `buffer` and returns a new ArrayBuffer owning its bytes. Throws a `TypeError`
 * for buffers that cannot be detached (such as a `WebAssembly.Memory` buffer). Without
 * `ArrayBuffer.prototype.transfer` (Node 20) it transfers through `structuredClone` and checks that the buffer
 * really was detached.
 */
export function transferArrayBuffer(buffer: ArrayBuffer): ArrayBuffer {
  if (nativeTransfer !== undefined) {
    return nativeTransfer.call(buffer);
  }
  const byteLength = byteLengthGetter.call(buffer);
  let transferred: ArrayBuffer;
  try {
    transferred = structuredClone(buffer, { transfer: [buffer] });
  } catch (error) {
    throw new TypeError("Cannot transfer ArrayBuffer: it is not detachable", { cause: error });
  }
  // Node 20's structuredClone copies a buffer it cannot detach (a WebAssembly.Memory's) instead of throwing. A
  // buffer that had bytes was detached exactly when it has none left; only an empty one needs the full test,
  // which throws and catches an exception when the buffer is detached (as it is after every transfer).
  if (byteLength !== 0 ? byteLengthGetter.call(buffer) !== 0 : !isDetachedBuffer(buffer)) {
    throw new TypeError("Cannot transfer ArrayBuffer: it is not detachable");
  }
  return transferred;
}

/** CopyDataBlockBytes: copies `count` bytes between two buffers. */
export function copyDataBlockBytes(
  dest: ArrayBuffer,
  destOffset: number,
  src: ArrayBuffer,
  srcOffset: number,
  count: number,
): void {
  new Uint8Array(dest, destOffset, count).set(new Uint8Array(src, srcOffset, count));
}

/** CanCopyDataBlockBytes: whether {@link copyDataBlockBytes} may run with these arguments. */
export function canCopyDataBlockBytes(
  toBuffer: ArrayBuffer,
  toIndex: number,
  fromBuffer: ArrayBuffer,
  fromIndex: number,
  count: number,
): boolean {
  if (toBuffer === fromBuffer) return false;
  if (isDetachedBuffer(toBuffer) || isDetachedBuffer(fromBuffer)) return false;
  if (toIndex + count > toBuffer.byteLength) return false;
  if (fromIndex + count > fromBuffer.byteLength) return false;
  return true;
}

/** ArrayBuffer slice without going through a possibly patched `ArrayBuffer.prototype.slice`. */
export function arrayBufferSlice(buffer: ArrayBuffer, begin: number, end: number): ArrayBuffer {
  const length = end - begin;
  const result = new ArrayBuffer(length);
  copyDataBlockBytes(result, 0, buffer, begin, length);
  return result;
}

/** CloneAsUint8Array: a `Uint8Array` over a fresh copy of the bytes `view` covers. */
export function cloneAsUint8Array(view: ArrayBufferViewLike): Uint8Array<ArrayBuffer> {
  const buffer = arrayBufferSlice(view.buffer, view.byteOffset, view.byteOffset + view.byteLength);
  return new Uint8Array(buffer);
}

/** Element size of a typed array or `DataView` (1 for `DataView`). */
export function elementSizeOf(view: ArrayBufferViewLike): number {
  return (view as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT ?? 1;
}

/** Constructor building views of the same kind as `view`. */
export function viewConstructorOf(view: ArrayBufferViewLike): ArrayBufferViewConstructor {
  return view.constructor as ArrayBufferViewConstructor;
}

/**
 * WebIDL `ArrayBufferView` conversion: a typed array or `DataView` over a non-shared ArrayBuffer.
 * Throws a `TypeError` for anything else.
 */
export function assertArrayBufferView(value: unknown, context: string): asserts value is ArrayBufferViewLike {
  if (!ArrayBuffer.isView(value)) {
    throw new TypeError(`${context} is not an ArrayBufferView`);
  }
  if (!(value.buffer instanceof ArrayBuffer) && isSharedArrayBuffer(value.buffer)) {
    throw new TypeError(`${context} is backed by a SharedArrayBuffer`);
  }
}

function isSharedArrayBuffer(buffer: ArrayBufferLike): boolean {
  return (
    typeof SharedArrayBuffer === "function" && Object.prototype.toString.call(buffer) === "[object SharedArrayBuffer]"
  );
}
