/**
 * `drainpipe search <name> <value>`: random access to a sorted stored file by value, printing what
 * `GET /files/:name/search` answers.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { printJsonLine } from "../output.ts";

/** Registers `search` on `program`. */
export function registerSearch(program: Command): void {
  addConnectionOptions(
    program
      .command("search")
      .description(
        "find the first line of a sorted file whose number is at least VALUE; print { index, value, found } as JSON",
      )
      .argument("<name>", "the stored file's name (its numbers in non-decreasing order)")
      .argument("<value>", "an integer of magnitude at most 2^53 − 1"),
  ).action(async (name: string, value: string, options: ConnectionOptions) => {
    printJsonLine(await withConnection(options, (client) => client.search(name, value)));
  });
}
