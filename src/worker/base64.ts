/**
 * Base64 (RFC 4648, with padding) of bytes and back, as the worker's headers and records carry binary values:
 * digests (`Content-Digest`, `Upload-Checksum`), `Upload-Metadata` values, a tus upload's held line.
 *
 * @module
 */

/**
 * The base64 of `bytes`.
 *
 * @example
 * ```ts
 * bytesToBase64(new Uint8Array([1, 2, 3])); // "AQID"
 * ```
 */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The bytes of base64 `text`.
 *
 * @throws {DOMException} `InvalidCharacterError` when `text` is not base64.
 * @example
 * ```ts
 * base64ToBytes("AQID").join(","); // "1,2,3"
 * ```
 */
export function base64ToBytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}
