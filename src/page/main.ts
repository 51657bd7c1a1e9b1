/**
 * The browser page the worker serves at `/` (issue 37): the token field, the uploader (Uppy's Dashboard sending
 * files over tus to `/tus`), the progress line, a refused upload's reason (a bad line with its line and column),
 * the unfinished uploads a reload left, and the stored files with download links. The page itself is public;
 * every call behind it carries the tab's token.
 *
 * Built by `npm run build:page` (`scripts/build-page.ts`) into `page-dist/`, which `wrangler.toml` serves as
 * static assets.
 *
 * @module
 */
import prettyBytes from "pretty-bytes";
import { ApiClient } from "./api-client.ts";
import { ApiError } from "./api-error.ts";
import { Refusals } from "./refusals.ts";
import { StoredFilesView } from "./stored-files.ts";
import { TokenStore } from "./token-store.ts";
import { findUnfinishedUploads, forgetUnfinishedUpload } from "./unfinished-uploads.ts";
import { describeUploadFailure, position, type UploadFailure } from "./upload-failure.ts";
import { describeProgress, UploadProgress } from "./upload-progress.ts";
import { createUploader, UPPY_ID } from "./uploader.ts";

/** The element of `index.html` with `id`, of the type the page expects. */
function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`index.html has no #${id}`);
  return found as T;
}

const tokens = new TokenStore(sessionStorage);
tokens.adoptFragment(location, history);
const api = new ApiClient(location.origin, tokens);
const endpoint = `${location.origin}/tus`;

const tokenField = element<HTMLInputElement>("token");
const connection = element<HTMLParagraphElement>("connection");
const progressLine = element<HTMLParagraphElement>("progress");
const errorBox = element<HTMLDivElement>("upload-error");
const unfinishedBox = element<HTMLDivElement>("unfinished");
const unfinishedList = element<HTMLUListElement>("unfinished-list");

const files = new StoredFilesView(
  {
    table: element<HTMLTableElement>("files-table"),
    body: element<HTMLTableSectionElement>("files-body"),
    status: element<HTMLParagraphElement>("files-status"),
    more: element<HTMLButtonElement>("more-files"),
  },
  api,
);

/** Asks the worker for its limits with the token: says whether the token works, then lists the files. */
async function connect(): Promise<void> {
  if (tokens.token === "") {
    connection.textContent = "Not connected: enter the worker's API token.";
    connection.dataset.state = "none";
    files.clear("Enter the token to list the stored files.");
    return;
  }
  connection.textContent = "Connecting…";
  try {
    const limits = await api.limits();
    connection.textContent =
      `Connected. Uploads go in chunks of up to ${prettyBytes(limits.maxSegmentBytes)}, ` +
      `files of up to ${prettyBytes(limits.maxUploadBytes)}.`;
    connection.dataset.state = "connected";
    await files.refresh();
  } catch (error) {
    connection.textContent = describeConnectionError(error);
    connection.dataset.state = "failed";
    files.clear("The stored files show once the token works.");
  }
}

function describeConnectionError(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) return "The worker refused this token (401).";
  if (error instanceof ApiError) return `The worker answered: ${error.message}`;
  return `Cannot reach the worker: ${(error as Error).message}`;
}

function showFailure(failure: UploadFailure): void {
  element("upload-error-title").textContent = failure.title;
  const where = element<HTMLParagraphElement>("upload-error-position");
  const body = failure.body;
  where.hidden = body?.line === undefined;
  where.textContent = body?.line === undefined ? "" : capitalized(position(body));
  element("upload-error-detail").textContent = failure.detail;
  errorBox.dataset.line = body?.line === undefined ? "" : String(body.line);
  errorBox.dataset.column = body?.column === undefined ? "" : String(body.column);
  errorBox.hidden = false;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The bytes of `uploaded`, files Uppy uploaded. */
function storedBytes(uploaded: readonly { size: number | null }[]): number {
  return uploaded.reduce((sum, file) => sum + (file.size ?? 0), 0);
}

/** Lists the uploads a reload (or a failure) left unfinished, leaving out the files now in the uploader. */
async function showUnfinished(): Promise<void> {
  const inUploader = new Set(uppy.getFiles().map((file) => file.id));
  const unfinished = (await findUnfinishedUploads(UPPY_ID, endpoint)).filter((u) => !inUploader.has(u.fileId));
  unfinishedList.replaceChildren(
    ...unfinished.map((upload) => {
      const item = document.createElement("li");
      const size = upload.size === null ? "" : `, ${prettyBytes(upload.size)}`;
      const started = new Date(upload.createdAt).toLocaleString();
      item.append(`${upload.name}${size}, started ${started} `);
      const forget = document.createElement("button");
      forget.type = "button";
      forget.className = "secondary small";
      forget.textContent = "Forget";
      forget.addEventListener("click", async () => {
        forget.disabled = true;
        await forgetUnfinishedUpload(upload, tokens.authorization());
        await showUnfinished();
      });
      item.append(forget);
      return item;
    }),
  );
  unfinishedBox.hidden = unfinished.length === 0;
}

const refusals = new Refusals();
const uppy = createUploader({
  target: element("dashboard"),
  endpoint,
  api,
  tokens,
  refusals,
  onLimitsFailed(error) {
    showFailure({ title: "Cannot start the upload", detail: describeConnectionError(error) });
  },
});

const progress = new UploadProgress();
/** The files of the upload in progress: those the progress line counts. */
let batch = new Set<string>();

uppy.on("upload-start", (started) => {
  errorBox.hidden = true;
  delete progressLine.dataset.done;
  batch = new Set(started.map((file) => file.id));
  progress.reset();
});

uppy.on("upload-progress", () => {
  let sent = 0;
  let total = 0;
  for (const id of batch) {
    const file = uppy.getFile(id);
    if (!file) continue;
    sent += file.progress.bytesUploaded || 0;
    total += file.progress.bytesTotal ?? file.size ?? 0;
  }
  progress.update(sent, total);
  progressLine.hidden = false;
  progressLine.textContent = describeProgress(progress.reading());
  progressLine.dataset.sent = String(sent);
  progressLine.dataset.total = String(total);
});

/** On a pause the line says so (no rate, no time left); after it the rate is measured afresh. */
function pausedOrResumed(): void {
  progress.reset();
  if (!uppy.getObjectOfFilesPerState().isAllPaused || progressLine.hidden) return;
  const { sent, total } = progressLine.dataset;
  progressLine.textContent = `Paused at ${prettyBytes(Number(sent ?? 0))} of ${prettyBytes(Number(total ?? 0))}.`;
}
uppy.on("pause-all", pausedOrResumed);
uppy.on("resume-all", pausedOrResumed);
uppy.on("upload-pause", pausedOrResumed);

uppy.on("upload-error", (file, error) => {
  const name = file?.name ?? "the file";
  const failure = describeUploadFailure(name, error, (response) => refusals.of(response));
  showFailure(failure);
  // A refused file would be refused again: forget its upload rather than offer to continue it.
  if (file && failure.status !== undefined && failure.status >= 400 && failure.status < 500) {
    void findUnfinishedUploads(UPPY_ID, endpoint).then(async (unfinished) => {
      for (const upload of unfinished.filter((u) => u.fileId === file.id)) {
        await forgetUnfinishedUpload(upload, tokens.authorization());
      }
    });
  }
});

uppy.on("upload-success", () => void files.refresh());

uppy.on("complete", (result) => {
  const stored = result.successful?.length ?? 0;
  const failed = result.failed?.length ?? 0;
  if (stored === 0 && failed === 0) return;
  const fileCount = (count: number) => `${count} file${count === 1 ? "" : "s"}`;
  progressLine.hidden = false;
  progressLine.textContent =
    stored === 0
      ? `Nothing stored: ${fileCount(failed)} failed.`
      : `Stored ${fileCount(stored)} (${prettyBytes(storedBytes(result.successful ?? []))})` +
        (failed > 0 ? `; ${fileCount(failed)} failed.` : ".");
  progressLine.dataset.done = "true";
  void showUnfinished();
});

uppy.on("file-added", () => void showUnfinished());
uppy.on("file-removed", () => void showUnfinished());

element<HTMLFormElement>("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  tokens.token = tokenField.value;
  void connect();
});
element<HTMLButtonElement>("forget-token").addEventListener("click", () => {
  tokens.token = "";
  tokenField.value = "";
  void connect();
});
element<HTMLButtonElement>("refresh-files").addEventListener("click", () => void files.refresh());

// A link with `#token=…` opened in this tab again changes only the fragment: the page does not load anew.
addEventListener("hashchange", () => {
  if (!tokens.adoptFragment(location, history)) return;
  tokenField.value = tokens.token;
  void connect();
});

tokenField.value = tokens.token;
void connect();
void showUnfinished();
