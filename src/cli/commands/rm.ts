/**
 * `drainpipe rm <name>`: removes a stored file and every object under its name.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { printJson, printLines } from "../output.ts";

/** Registers `rm` on `program`. */
export function registerRm(program: Command): void {
  addConnectionOptions(
    program
      .command("rm")
      .description("remove a stored file and all its parts")
      .argument("<name>", "the stored file's name")
      .option("--json", "print { name, removed } as JSON"),
  ).action(async (name: string, options: ConnectionOptions & { json?: boolean }) => {
    await withConnection(options, (client) => client.remove(name));
    if (options.json) printJson({ name, removed: true });
    else printLines([`removed "${name}"`]);
  });
}
