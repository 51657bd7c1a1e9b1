/**
 * `drainpipe lines <name> <from> [count]`: random access to a stored file by line, printing what
 * `GET /files/:name/lines` answers.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { printJson } from "../output.ts";

/** Registers `lines` on `program`. */
export function registerLines(program: Command): void {
  addConnectionOptions(
    program
      .command("lines")
      .description("print lines FROM … FROM + COUNT − 1 of a stored file (0-based), read through its line index")
      .argument("<name>", "the stored file's name")
      .argument("<from>", "the first line, 0-based")
      .argument("[count]", "how many lines, 1 to 10000 (default 1; fewer at the end of the file)")
      .option("--json", "print { from, count, total, lines } as JSON, the lines as numbers"),
  ).action(
    async (name: string, from: string, count: string | undefined, options: ConnectionOptions & { json?: boolean }) => {
      const lines = await withConnection(options, (client) => client.lines(name, from, count));
      if (options.json) {
        const numbers = lines.text.split("\n").slice(0, -1).map(Number);
        printJson({ from: lines.from, count: lines.count, total: lines.total, lines: numbers });
      } else process.stdout.write(lines.text);
    },
  );
}
