/**
 * The page's calls to the worker's API beside the uploads (those go through tus): the limits, the list of stored
 * files and their content, each with the tab's token.
 *
 * @module
 */

import type { FileList, WorkerLimits } from "../http-contract/bodies.ts";
import { parseFileList, parseWorkerLimits } from "../http-contract/reply-parsers.ts";
import { apiErrorOf } from "./api-error.ts";
import type { TokenStore } from "./token-store.ts";

/** What `GET /limits` answers (the worker's own type): the page reads `maxSegmentBytes` and `plan`. */
/** A stored file as `GET /files` lists it (the worker's own type). */
export type { FileSummary as StoredFile, WorkerLimits } from "../http-contract/bodies.ts";

/**
 * Calls the worker at `origin` with the token of `tokens`. Every failure is an {@linkcode ApiError} (with the
 * worker's `error` and `detail`), a network `TypeError`, or a `ReplyFormatError` for a reply not of the promised
 * shape.
 *
 * @example
 * ```ts
 * import { TokenStore } from "./token-store.ts";
 * declare const storage: Storage; // the page passes sessionStorage
 * const api = new ApiClient("http://127.0.0.1:8787", new TokenStore(storage));
 * const { maxSegmentBytes } = await api.limits();
 * ```
 */
export class ApiClient {
  readonly #origin: string;
  readonly #tokens: TokenStore;

  /** A client of the worker at `origin` (the page's own). */
  constructor(origin: string, tokens: TokenStore) {
    this.#origin = origin;
    this.#tokens = tokens;
  }

  /** `GET /limits`: what one request may carry. */
  async limits(): Promise<WorkerLimits> {
    return parseWorkerLimits(await (await this.#get("/limits")).text());
  }

  /** `GET /files`: one page of the stored files, from `cursor` (the first page without one). */
  async listFiles(cursor: string | null = null): Promise<FileList> {
    const query = cursor === null ? "" : `?cursor=${encodeURIComponent(cursor)}`;
    return parseFileList(await (await this.#get(`/files${query}`)).text());
  }

  /** `GET /files/<name>/content`: the whole content of a stored file, in memory. */
  async content(name: string): Promise<Blob> {
    return (await this.#get(contentPath(name))).blob();
  }

  async #get(path: string): Promise<Response> {
    const response = await fetch(`${this.#origin}${path}`, { headers: this.#tokens.authorization() });
    if (!response.ok) throw await apiErrorOf(response);
    return response;
  }
}

/** The path of a stored file's content: `/files/<name>/content`. */
export function contentPath(name: string): string {
  return `/files/${encodeURIComponent(name)}/content`;
}
