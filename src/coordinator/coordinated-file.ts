import type { ObjectStore } from "../store/object-store.ts";
import type { FileLedger } from "./file-ledger.ts";

/**
 * What every part of a file's coordinator works on: the file name (the coordinator's own), the ledger of its
 * state, and the store its objects live in.
 */
export interface CoordinatedFile {
  /** The file name: the name the Durable Object was reached by. */
  readonly name: string;
  /** The coordinator's records. */
  readonly ledger: FileLedger;
  /** Where the file's objects live. */
  readonly store: ObjectStore;
}
