/**
 * The tus checksum extension: a PATCH body hashed as it streams with the algorithm its `Upload-Checksum` names,
 * and refused with `460` when the digest differs, before anything of it is accepted.
 *
 * @module
 */
import { TransformStream } from "../streams/standard/transform-stream.ts";
import { HttpError } from "./http-error.ts";
import { CHECKSUM_MISMATCH, type UploadChecksum } from "./tus-protocol.ts";

/** The Web Crypto names of the tus checksum algorithms. */
const DIGEST_ALGORITHMS = { sha1: "SHA-1", sha256: "SHA-256" } as const;

/**
 * Hashes what passes through {@linkcode BodyChecksum.stage} with the algorithm of `expected`.
 *
 * @example
 * ```ts
 * import type { ReadableStream } from "../streams/standard/readable-stream.ts";
 * declare const body: ReadableStream<Uint8Array>;
 * const checksum = new BodyChecksum({ algorithm: "sha1", digest: "2jmj7l5rSw0yVb/vlWAYkK/YBwk=" });
 * const checked = body.pipeThrough(checksum.stage);
 * // … once the body has passed:
 * await checksum.check(); // throws HttpError 460 when the digests differ
 * ```
 */
export class BodyChecksum {
  /** The stage to pipe the body through. */
  readonly stage: TransformStream<Uint8Array, Uint8Array>;
  readonly #expected: UploadChecksum;
  readonly #hash: DigestStream;
  readonly #writer: WritableStreamDefaultWriter<ArrayBuffer | ArrayBufferView>;

  /** Starts hashing for `expected`. */
  constructor(expected: UploadChecksum) {
    this.#expected = expected;
    this.#hash = new crypto.DigestStream(DIGEST_ALGORITHMS[expected.algorithm]);
    this.#writer = this.#hash.getWriter();
    this.stage = new TransformStream<Uint8Array, Uint8Array>({
      transform: async (chunk, controller) => {
        if (chunk.byteLength > 0) await this.#writer.write(chunk);
        controller.enqueue(chunk);
      },
      flush: () => this.#writer.close(),
    });
  }

  /**
   * Checks the digest of everything that passed, once the body has.
   *
   * @throws {HttpError} `460 checksum-mismatch` when it differs from the `Upload-Checksum`.
   */
  async check(): Promise<void> {
    const bytes = new Uint8Array(await this.#hash.digest);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    const actual = btoa(binary);
    if (actual === this.#expected.digest) return;
    throw new HttpError(
      CHECKSUM_MISMATCH,
      "checksum-mismatch",
      `Cannot accept the body: its ${this.#expected.algorithm} is ${actual}, its Upload-Checksum says ` +
        `${this.#expected.digest}; nothing of it was stored`,
    );
  }
}
