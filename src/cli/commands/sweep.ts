/**
 * `drainpipe sweep`: the repair tool after any crash. Removes, in the whole bucket, every object that no live
 * version, upload in flight or read refers to and whose lease ended.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { plural } from "../format.ts";
import { printJson, printLines } from "../output.ts";
import type { SweepTotal } from "../worker-client.ts";

/**
 * What `sweep` says it did.
 *
 * @example
 * ```ts
 * describeSweep({ names: 3, removed: 12 }); // "swept 3 file names: removed 12 objects nothing referred to"
 * ```
 */
export function describeSweep(outcome: SweepTotal): string {
  const names = plural(outcome.names, "file name");
  return `swept ${names}: removed ${plural(outcome.removed, "object")} nothing referred to`;
}

/** Registers `sweep` on `program`. */
export function registerSweep(program: Command): void {
  addConnectionOptions(
    program
      .command("sweep")
      .description("remove every object in the bucket that no file, upload in flight or read refers to")
      .option("--json", "print { names, removed } as JSON"),
  ).action(async (options: ConnectionOptions & { json?: boolean }) => {
    const outcome = await withConnection(options, (client) => client.sweep());
    if (options.json) printJson(outcome);
    else printLines([describeSweep(outcome)]);
  });
}
