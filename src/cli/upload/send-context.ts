/**
 * What every way of sending an input needs: the worker, the command's settings and the Ctrl-C in progress.
 *
 * @module
 */
import type { Interruption } from "../interrupt.ts";
import type { WorkerClient } from "../worker-client.ts";
import type { UploadSettings } from "./upload-settings.ts";

/** The worker to send to, the settings of the `upload` command, and the interruption that cancels the upload. */
export interface SendContext {
  /** The worker's API. */
  client: WorkerClient;
  /** The command's settings. */
  settings: UploadSettings;
  /** Its signal aborts at the first Ctrl-C. */
  interruption: Interruption;
}
