/**
 * The process that hosts the embedded worker (see `embedded-worker.ts`): started detached, in a process group
 * of its own, so that a terminal's Ctrl-C reaches the CLI only and the CLI can wind an upload down before it
 * stops the worker (wrangler's local runtime kills workerd and exits at the first SIGINT it sees). It starts the
 * worker with wrangler's `unstable_dev`, writes one JSON line `{ url, token }` to stdout, and stops the worker
 * and exits once its stdin ends: when the CLI asks it to, and also when the CLI dies, since the pipe closes then.
 *
 * Usage: `node embedded-worker-host.ts <options JSON>` (`stateDir`, `vars`).
 *
 * @module
 */
import { resolve } from "node:path";
import { BUILT, PROJECT_ROOT, quietWrangler } from "./embedded-worker.ts";
import { randomToken } from "./random-token.ts";

const { stateDir, vars } = JSON.parse(process.argv[2] ?? "{}") as { stateDir: string; vars?: Record<string, string> };
quietWrangler();
const { unstable_dev } = await import("wrangler");
const token = randomToken();
// The sources with the project's wrangler.toml, or for the built CLI the built worker with the configuration that
// the build writes beside this script (the same bindings and migration).
const worker = await unstable_dev(resolve(PROJECT_ROOT, BUILT ? "dist/worker/index.js" : "src/worker/index.ts"), {
  config: BUILT ? resolve(import.meta.dirname, "wrangler.toml") : resolve(PROJECT_ROOT, "wrangler.toml"),
  persistTo: stateDir,
  logLevel: "warn",
  vars: { ...vars, API_TOKEN: token },
  experimental: { disableExperimentalWarning: true },
});
process.stdout.write(`${JSON.stringify({ url: `http://${worker.address}:${worker.port}`, token })}\n`);
process.stdin.resume();
process.stdin.on("end", async () => {
  await worker.stop();
  process.exit(0);
});
