/**
 * `drainpipe dev`: starts the embedded worker once and keeps it running until Ctrl-C, so that the other commands
 * in embedded mode on the same state directory attach to it instead of starting one each (a few seconds).
 *
 * @module
 */
import { resolve } from "node:path";
import type { Command } from "commander";
import { CliError } from "../cli-error.ts";
import { forgetDevWorker, recordDevWorker, runningDevWorker } from "../dev-worker.ts";
import { startEmbeddedWorker } from "../embedded-worker.ts";
import { printLines } from "../output.ts";
import { findStateDir } from "../state-dir.ts";
import { WorkerClient } from "../worker-client.ts";

/** Registers `dev` on `program`. */
export function registerDev(program: Command): void {
  program
    .command("dev")
    .description("keep the embedded worker running until Ctrl-C; other commands on its state directory use it")
    .option("--state-dir <dir>", "where the embedded worker persists its local R2 (default: as for the others)")
    .action(async (options: { stateDir?: string }) => {
      const stateDir = resolve(options.stateDir ?? findStateDir());
      const running = await runningDevWorker(stateDir);
      if (running !== undefined) {
        throw new CliError(
          `Cannot start drainpipe dev on ${stateDir}: one runs there already (pid ${running.pid}, ${running.url})`,
          { code: "dev-running", details: { ...running, token: undefined } },
        );
      }
      process.stderr.write(`drainpipe: starting the embedded worker (local workerd) with its state in ${stateDir}\n`);
      const worker = await startEmbeddedWorker({ stateDir });
      try {
        // The repair after a crash, as every start of the embedded worker does.
        await new WorkerClient(worker.url, worker.token).sweep();
        const stopped = new Promise<void>((done) => {
          process.once("SIGINT", () => done());
          process.once("SIGTERM", () => done());
        });
        await recordDevWorker(stateDir, { url: worker.url, token: worker.token, pid: process.pid });
        printLines([
          `drainpipe dev: the embedded worker runs at ${worker.url} with its state in ${stateDir}`,
          "  drainpipe commands on this state directory use it (no start each); Ctrl-C stops it",
          `  token: ${worker.token}`,
        ]);
        await stopped;
      } finally {
        await forgetDevWorker(stateDir);
        await worker.stop();
      }
      printLines(["drainpipe dev: stopped"]);
    });
}
