/**
 * The SHA-256 of a request body (or another digest, for the tus checksum extension: `body-checksum.ts`), computed as
 * it streams through the upload pipeline (workerd's `crypto.DigestStream`), and the RFC 9530 `Content-Digest` header
 * a client may send to have it checked.
 *
 * @module
 */
import { TransformStream } from "../streams/engine/transform-stream.ts";
import { bytesToBase64 } from "./base64.ts";
import { HttpError } from "./http-error.ts";

/**
 * The SHA-256 (base64) a `Content-Digest` header asks for, `undefined` without the header.
 *
 * @throws {HttpError} `400 invalid-digest` when the header is malformed or names no `sha-256` digest.
 * @example
 * ```ts
 * expectedDigest("sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:");
 * // "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
 * expectedDigest(null); // undefined
 * ```
 */
export function expectedDigest(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const member of header.split(",")) {
    const match = /^\s*sha-256\s*=\s*:([A-Za-z0-9+/]{43}=):\s*$/i.exec(member);
    if (match) return match[1];
  }
  throw new HttpError(
    400,
    "invalid-digest",
    `Cannot check the Content-Digest "${header}": expected sha-256=:<base64 of 32 bytes>: (RFC 9530)`,
  );
}

/**
 * A pass-through stage that hashes every byte of the body (SHA-256, or the algorithm given) and remembers whether
 * it ended with a line break.
 *
 * @example
 * ```ts
 * import type { ReadableStream } from "../streams/engine/readable-stream.ts";
 * declare const body: ReadableStream<Uint8Array>;
 * const digest = new BodyDigest();
 * const checked = body.pipeThrough(digest.stage);
 * // … once the body has been read:
 * const sha256 = await digest.value();
 * ```
 */
export class BodyDigest {
  /** The stage to pipe the body through. */
  readonly stage: TransformStream<Uint8Array, Uint8Array>;
  readonly #hash: DigestStream;
  readonly #writer: WritableStreamDefaultWriter<ArrayBuffer | ArrayBufferView>;
  #lastByte: number | undefined;

  /** Starts hashing with `algorithm` (a Web Crypto digest name; SHA-256 unless given). */
  constructor(algorithm = "SHA-256") {
    this.#hash = new crypto.DigestStream(algorithm);
    this.#writer = this.#hash.getWriter();
    this.stage = new TransformStream<Uint8Array, Uint8Array>({
      transform: async (chunk, controller) => {
        if (chunk.byteLength === 0) return;
        await this.#writer.write(chunk);
        this.#lastByte = chunk[chunk.byteLength - 1];
        controller.enqueue(chunk);
      },
      flush: () => this.#writer.close(),
    });
  }

  /** Whether the body ended with a line break, or was empty. */
  get endsWithLineBreak(): boolean {
    return this.#lastByte === undefined || this.#lastByte === 0x0a;
  }

  /** The body's digest (its SHA-256 unless another algorithm was given), base64, once the whole body has passed. */
  async value(): Promise<string> {
    return bytesToBase64(new Uint8Array(await this.#hash.digest));
  }

  /**
   * Checks the digest against `expected` (from {@linkcode expectedDigest}); resolves with the digest.
   *
   * @throws {HttpError} `400 digest-mismatch` when they differ.
   */
  async check(expected: string | undefined): Promise<string> {
    const actual = await this.value();
    if (expected !== undefined && expected !== actual) {
      throw new HttpError(
        400,
        "digest-mismatch",
        `Cannot accept the body: its SHA-256 is ${actual}, its Content-Digest says ${expected}`,
      );
    }
    return actual;
  }
}
