/**
 * The list of stored files under the uploader: a page of `GET /files` at a time, each file with a download link
 * that fetches its content with the tab's token (a plain link would go without it).
 *
 * @module
 */
import prettyBytes from "pretty-bytes";
import { type ApiClient, contentPath, type StoredFile } from "./api-client.ts";

/** The elements of the list, from `index.html`. */
export interface StoredFilesElements {
  /** The table of files (hidden while there is none). */
  table: HTMLTableElement;
  /** Its body, one row per file. */
  body: HTMLTableSectionElement;
  /** A line that says what the list shows, or why it shows nothing. */
  status: HTMLElement;
  /** Loads the next page of files (hidden on the last). */
  more: HTMLButtonElement;
}

/**
 * Shows the worker's stored files in `elements`.
 *
 * @example
 * ```ts
 * import type { ApiClient } from "./api-client.ts";
 * declare const elements: StoredFilesElements;
 * declare const api: ApiClient;
 * const list = new StoredFilesView(elements, api);
 * await list.refresh();
 * ```
 */
export class StoredFilesView {
  readonly #elements: StoredFilesElements;
  readonly #api: ApiClient;
  #cursor: string | null = null;
  #shown = 0;
  #generation = 0;

  /** A view of the files `api` lists, in `elements`. */
  constructor(elements: StoredFilesElements, api: ApiClient) {
    this.#elements = elements;
    this.#api = api;
    elements.more.addEventListener("click", () => void this.#load(false));
  }

  /** Lists the files again from the first page. */
  refresh(): Promise<void> {
    return this.#load(true);
  }

  /** Empties the list and says `message` instead (no token, say). */
  clear(message: string): void {
    this.#generation++;
    this.#elements.body.replaceChildren();
    this.#elements.table.hidden = true;
    this.#elements.more.hidden = true;
    this.#elements.status.textContent = message;
  }

  async #load(fromStart: boolean): Promise<void> {
    const generation = ++this.#generation;
    const { status, body, table, more } = this.#elements;
    status.textContent = "Loading the stored files…";
    try {
      const page = await this.#api.listFiles(fromStart ? null : this.#cursor);
      if (generation !== this.#generation) return;
      if (fromStart) {
        body.replaceChildren();
        this.#shown = 0;
      }
      body.append(...page.files.map((file) => this.#row(file)));
      this.#shown += page.files.length;
      this.#cursor = page.cursor;
      table.hidden = this.#shown === 0;
      more.hidden = page.cursor === null;
      status.textContent =
        this.#shown === 0 ? "No files stored yet." : `${this.#shown} file${this.#shown === 1 ? "" : "s"} stored.`;
    } catch (error) {
      if (generation !== this.#generation) return;
      status.textContent = `Cannot list the stored files: ${(error as Error).message}`;
    }
  }

  #row(file: StoredFile): HTMLTableRowElement {
    const row = document.createElement("tr");
    row.dataset.name = file.name;
    const created = new Date(file.createdAt);
    row.append(
      cell(file.name, "name"),
      cell(file.totals.numbers.toLocaleString("en"), "number"),
      cell(prettyBytes(file.totals.bytes), "number"),
      cell(String(file.totals.parts), "number"),
      cell(Number.isNaN(created.getTime()) ? file.createdAt : created.toLocaleString()),
    );
    const download = document.createElement("a");
    download.href = contentPath(file.name);
    download.download = file.name;
    download.textContent = "Download";
    download.className = "download";
    download.addEventListener("click", (event) => {
      event.preventDefault();
      void this.#download(file.name, download);
    });
    const last = document.createElement("td");
    last.append(download);
    row.append(last);
    return row;
  }

  /** Fetches the content with the token and saves it through an object URL. */
  async #download(name: string, link: HTMLAnchorElement): Promise<void> {
    if (link.getAttribute("aria-busy") === "true") return;
    link.setAttribute("aria-busy", "true");
    link.textContent = "Downloading…";
    try {
      const url = URL.createObjectURL(await this.#api.content(name));
      const save = document.createElement("a");
      save.href = url;
      save.download = name;
      document.body.append(save);
      save.click();
      save.remove();
      // The browser has the blob once the download started; give it time before the URL goes.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      link.textContent = "Download";
    } catch (error) {
      link.textContent = "Download failed";
      link.title = (error as Error).message;
    } finally {
      link.removeAttribute("aria-busy");
    }
  }
}

function cell(text: string, className?: string): HTMLTableCellElement {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}
