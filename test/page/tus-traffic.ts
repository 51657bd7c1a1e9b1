/**
 * What a page sends to the worker's tus endpoint, read from its requests and the worker's answers: the uploads it
 * creates and the bytes each `PATCH` got accepted, from which offset.
 *
 * @module
 */
import type { Page, Response } from "playwright-core";

/** One `PATCH` the worker answered. */
export interface Patch {
  /** The upload's URL. */
  url: string;
  /** Its `Upload-Offset`: where the chunk starts in the (partial) upload. */
  from: number;
  /** The worker's `Upload-Offset` after it, when it accepted the chunk (else `undefined`). */
  to: number | undefined;
  /** The answer's status. */
  status: number;
}

/** One `POST` to the endpoint (a creation). */
export interface Creation {
  /** Its `Upload-Concat`: `partial`, `final;…`, or `undefined` for a plain upload. */
  concat: string | undefined;
  /** The answer's status. */
  status: number;
  /** The answer's body when it was not 201 (the worker's error JSON). */
  body: string | undefined;
}

/**
 * Records the tus traffic of `page` (its requests to `<origin>/tus…`), across reloads.
 *
 * @example
 * ```ts
 * const traffic = new TusTraffic(page, worker.url);
 * const mark = traffic.mark(); // … later: traffic.patchesSince(mark)
 * ```
 */
export class TusTraffic {
  readonly patches: Patch[] = [];
  readonly creations: Creation[] = [];
  readonly #endpoint: string;

  /** Starts recording `page`'s requests to `${origin}/tus`. */
  constructor(page: Page, origin: string) {
    this.#endpoint = `${origin}/tus`;
    page.on("response", (response) => this.#record(response));
  }

  /** A mark to count from: the numbers of patches and creations so far. */
  mark(): { patches: number; creations: number } {
    return { patches: this.patches.length, creations: this.creations.length };
  }

  /** Bytes the worker accepted in the patches since `mark` (all without one). */
  accepted(mark = { patches: 0, creations: 0 }): number {
    return this.patches
      .slice(mark.patches)
      .reduce((sum, patch) => sum + (patch.to === undefined ? 0 : patch.to - patch.from), 0);
  }

  #record(response: Response): void {
    const request = response.request();
    if (!request.url().startsWith(this.#endpoint)) return;
    const headers = request.headers();
    if (request.method() === "PATCH") {
      const to = response.headers()["upload-offset"];
      this.patches.push({
        url: request.url(),
        from: Number(headers["upload-offset"]),
        to: response.status() === 204 && to !== undefined ? Number(to) : undefined,
        status: response.status(),
      });
    } else if (request.method() === "POST") {
      const creation: Creation = { concat: headers["upload-concat"], status: response.status(), body: undefined };
      this.creations.push(creation);
      if (response.status() !== 201) {
        void response.text().then(
          (text) => {
            creation.body = text;
          },
          () => undefined,
        );
      }
    }
  }
}
