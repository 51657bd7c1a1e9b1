/**
 * `drainpipe ls`: the complete files stored by the worker.
 *
 * @module
 */
import type { Command } from "commander";
import type { FileSummary } from "../../files/file-catalog.ts";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { formatBytes, formatCount } from "../format.ts";
import { printJson, printLines } from "../output.ts";

/**
 * The files as an aligned table with a header row, or one line saying there are none.
 *
 * @example
 * ```ts
 * printLines(formatFileTable(await client.list()));
 * // NAME    NUMBERS    SIZE    PARTS  CREATED
 * // primes  1,000,000  8.2 MB      1  2026-11-22T04:30:00.000Z
 * ```
 */
export function formatFileTable(files: readonly FileSummary[]): string[] {
  if (files.length === 0) return ["no files"];
  const rows = [
    ["NAME", "NUMBERS", "SIZE", "PARTS", "CREATED"],
    ...files.map((file) => [
      file.name,
      formatCount(file.totals.numbers),
      formatBytes(file.totals.bytes),
      formatCount(file.totals.parts),
      file.createdAt,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const leftAligned = new Set([0, 4]);
  return rows.map((row) =>
    row
      .map((cell, column) => (leftAligned.has(column) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd(),
  );
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
