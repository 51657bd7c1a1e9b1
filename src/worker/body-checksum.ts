/**
 * The tus checksum extension: a PATCH body hashed as it streams with the algorithm its `Upload-Checksum` names,
 * and refused with `460` when the digest differs, before anything of it is accepted.
 *
 * @module
 */
import { BodyDigest } from "./body-digest.ts";
import { HttpError } from "./http-error.ts";
import { CHECKSUM_MISMATCH, type UploadChecksum } from "./tus-protocol.ts";

/** The Web Crypto names of the tus checksum algorithms. */
const DIGEST_ALGORITHMS = { sha1: "SHA-1", sha256: "SHA-256" } as const;

/**
 * Hashes what passes through {@linkcode BodyChecksum.stage} with the algorithm of `expected`.
 *
 * @example
 * ```ts
 * import type { ReadableStream } from "../streams/engine/readable-stream.ts";
 * declare const body: ReadableStream<Uint8Array>;
 * const checksum = new BodyChecksum({ algorithm: "sha1", digest: "2jmj7l5rSw0yVb/vlWAYkK/YBwk=" });
 * const checked = body.pipeThrough(checksum.stage);
 * // … once the body has passed:
 * await checksum.check(); // throws HttpError 460 when the digests differ
 * ```
 */
export class BodyChecksum {
  readonly #expected: UploadChecksum;
  readonly #digest: BodyDigest;

  /** Starts hashing for `expected`. */
  constructor(expected: UploadChecksum) {
    this.#expected = expected;
    this.#digest = new BodyDigest(DIGEST_ALGORITHMS[expected.algorithm]);
  }

  /** The stage to pipe the body through. */
  get stage(): BodyDigest["stage"] {
    return this.#digest.stage;
  }

  /**
   * Checks the digest of everything that passed, once the body has.
   *
   * @throws {HttpError} `460 checksum-mismatch` when it differs from the `Upload-Checksum`.
   */
  async check(): Promise<void> {
    const actual = await this.#digest.value();
    if (actual === this.#expected.digest) return;
    throw new HttpError(
      CHECKSUM_MISMATCH,
      "checksum-mismatch",
      `Cannot accept the body: its ${this.#expected.algorithm} is ${actual}, its Upload-Checksum says ` +
        `${this.#expected.digest}; nothing of it was stored`,
    );
  }
}
