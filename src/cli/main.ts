#!/usr/bin/env node
/**
 * The `drainpipe` command: generate prime files, upload them to the worker (a deployed one with `--url`, or
 * the one embedded in local workerd), list, read back, verify and remove stored files. Run
 * `drainpipe --help` or `drainpipe <command> --help`.
 *
 * Exit codes: 0 on success, 1 when an operation fails (or `verify` finds a difference), 2 for a malformed
 * command line, 130 after Ctrl-C. With `--json`, a failure is also written on stdout as
 * `{ "error": code, "detail": message, … }`, the shape of the worker's error replies.
 *
 * @module
 */
import { createRequire } from "node:module";
import { Command } from "commander";
import { registerDev } from "./commands/dev.ts";
import { registerGet } from "./commands/get.ts";
import { registerLines } from "./commands/lines.ts";
import { registerLs } from "./commands/ls.ts";
import { registerPrimes } from "./commands/primes.ts";
import { registerRm } from "./commands/rm.ts";
import { registerSearch } from "./commands/search.ts";
import { registerSweep } from "./commands/sweep.ts";
import { registerUpload } from "./commands/upload.ts";
import { registerVerify } from "./commands/verify.ts";
import { reportError } from "./report-error.ts";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = new Command("drainpipe")
  .description(
    "Store huge newline-separated number files as newline-aligned parts in R2, through the drainpipe worker.",
  )
  .version(version)
  .option("--debug-rss", "print this process's peak resident memory (maxRSS) on stderr when it exits")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of [
  registerPrimes,
  registerUpload,
  registerLs,
  registerGet,
  registerLines,
  registerSearch,
  registerVerify,
  registerRm,
  registerSweep,
  registerDev,
])
  register(program);

// Whether the command asked for JSON: read from its parsed options once it runs; a command line commander
// refuses never gets that far, so then `--json` among the arguments decides.
let json = process.argv.slice(2).includes("--json");
program.hook("preAction", (_program, command) => {
  json = command.opts<{ json?: boolean }>().json === true;
});

try {
  await program.parseAsync();
} catch (error) {
  reportError(error, { json });
} finally {
  if (program.opts<{ debugRss?: boolean }>().debugRss) {
    const kib = process.resourceUsage().maxRSS;
    process.stderr.write(`drainpipe: peak RSS ${(kib / 1024).toFixed(1)} MiB (maxRSS ${kib} KiB)\n`);
  }
}
