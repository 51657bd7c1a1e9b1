#!/usr/bin/env node
/**
 * The `drainpipe` command as npm links it (the package's `bin`), there before any build: it runs the built command
 * line, `dist/cli/main.js`, when there is one (a packed or installed package always has it); in a clone not built
 * yet, the sources, `src/cli/main.ts`, with this Node when it runs TypeScript (Node 22.18, 23.6 and later strip the
 * types), else with the project's own Node, `node_modules/.bin/node` (so `node bin/drainpipe.js` works on Node 20);
 * without any of those it says what to run.
 *
 * Plain JavaScript, so that any Node from 20 on runs it as it is.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import { fileURLToPath } from "node:url";

const root = new URL("../", import.meta.url);
const built = new URL("dist/cli/main.js", root);
const sources = new URL("src/cli/main.ts", root);
const projectNode = new URL("node_modules/.bin/node", root);
/** Set in the environment of the project's Node when this script starts it, so that it never starts itself twice. */
const RELAUNCHED = "DRAINPIPE_BIN_RELAUNCHED";

if (existsSync(built)) {
  await import(built.href);
} else if (!existsSync(sources)) {
  fail(`${fileURLToPath(built)} is missing: reinstall the package (npm install drainpipe-streams)`);
} else if (process.features.typescript) {
  await import(sources.href);
} else if (existsSync(projectNode) && process.env[RELAUNCHED] === undefined) {
  relaunch(fileURLToPath(projectNode));
} else {
  const project = fileURLToPath(root);
  fail(
    `this clone is not built (no dist/cli/main.js), and Node ${process.version} cannot run the TypeScript sources. ` +
      `In ${project}, run \`npm install\` (it brings the project's own Node), then \`npx drainpipe …\` ` +
      "(or `npm run build` once, for the built command)",
  );
}

/**
 * Runs this script again with `node` (the project's Node, which runs the sources), with the same arguments, and
 * exits as it does. A Ctrl-C in a terminal reaches both processes, so this one ignores SIGINT and leaves it to the
 * command (whose first Ctrl-C cancels and cleans up); SIGTERM and SIGHUP are passed on.
 */
function relaunch(node) {
  const child = spawn(node, [process.argv[1] ?? fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, [RELAUNCHED]: "1" },
  });
  const ignore = () => {};
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", ignore);
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  child.on("error", (error) => fail(`cannot start ${node}: ${error.message}`));
  child.on("exit", (code, signal) => {
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}

/** Says on stderr why the command cannot run, and exits 1. */
function fail(reason) {
  process.stderr.write(`drainpipe: ${reason}\n`);
  process.exit(1);
}
