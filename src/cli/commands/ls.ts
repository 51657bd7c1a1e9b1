/**
 * `drainpipe ls`: the complete files stored by the worker.
 *
 * @module
 */
import Table from "cli-table3";
import type { Command } from "commander";
import type { FileSummary } from "../../files/file-catalog.ts";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { formatBytes, formatCount } from "../format.ts";
import { printJson, printLines } from "../output.ts";

/** `cli-table3` drawing characters for a borderless table: no rules, two spaces between columns. */
const BORDERLESS = {
  top: "",
  "top-mid": "",
  "top-left": "",
  "top-right": "",
  bottom: "",
  "bottom-mid": "",
  "bottom-left": "",
  "bottom-right": "",
  left: "",
  "left-mid": "",
  mid: "",
  "mid-mid": "",
  right: "",
  "right-mid": "",
  middle: "  ",
};

/**
 * The files as an aligned table with a header row (names and dates left-aligned, numbers right-aligned), or
 * one line saying there are none.
 *
 * @example
 * ```ts
 * import { printLines } from "../output.ts";
 * import type { FileSummary } from "../../files/file-catalog.ts";
 * declare const files: FileSummary[];
 * printLines(formatFileTable(files));
 * // NAME      NUMBERS     SIZE  PARTS  CREATED
 * // primes  1,000,000  8.25 MB      1  2026-11-22T04:30:00.000Z
 * ```
 */
export function formatFileTable(files: readonly FileSummary[]): string[] {
  if (files.length === 0) return ["no files"];
  const table = new Table({
    head: ["NAME", "NUMBERS", "SIZE", "PARTS", "CREATED"],
    colAligns: ["left", "right", "right", "right", "left"],
    chars: BORDERLESS,
    style: { head: [], border: [], "padding-left": 0, "padding-right": 0 },
  });
  for (const file of files) {
    table.push([
      file.name,
      formatCount(file.totals.numbers),
      formatBytes(file.totals.bytes),
      formatCount(file.totals.parts),
      file.createdAt,
    ]);
  }
  return table
    .toString()
    .split("\n")
    .map((line) => line.trimEnd());
}

/** Registers `ls` on `program`. */
export function registerLs(program: Command): void {
  addConnectionOptions(
    program
      .command("ls")
      .description("list the complete files the worker stores")
      .option("--json", "print { files: [...] } as JSON"),
  ).action(async (options: ConnectionOptions & { json?: boolean }) => {
    const files = await withConnection(options, (client) => client.list());
    if (options.json) printJson({ files });
    else printLines(formatFileTable(files));
  });
}
