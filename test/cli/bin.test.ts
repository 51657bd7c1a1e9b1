import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { findNode20 } from "../../scripts/node20.ts";
import { type CliRun, cleanEnv } from "./cli-runner.ts";

// The package's bin, bin/drainpipe.js, as a newcomer meets it in a fresh clone: before any build, run by `npx
// drainpipe` (npm links the project's own bin into its npx cache) and by the machine's Node 20, and after
// `npm run build`. Each test works in a clone of its own: the bin and package.json copied, the sources and
// node_modules linked.

const ROOT = resolve(import.meta.dirname, "../..");
const NODE24 = join(ROOT, "node_modules/.bin/node");
const node20 = findNode20();

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-bin-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A clone of the project under `directory`: the bin and package.json copied, `src` (and `node_modules`) linked. */
async function clone(name: string, options: { nodeModules: boolean }): Promise<string> {
  const project = join(directory, name);
  await mkdir(join(project, "bin"), { recursive: true });
  await copyFile(join(ROOT, "bin/drainpipe.js"), join(project, "bin/drainpipe.js"));
  await copyFile(join(ROOT, "package.json"), join(project, "package.json"));
  await symlink(join(ROOT, "src"), join(project, "src"));
  if (options.nodeModules) await symlink(join(ROOT, "node_modules"), join(project, "node_modules"));
  return project;
}

/** What `npm run build` would leave for the bin to find: a `dist/cli/main.js` that says it ran. */
async function build(project: string): Promise<void> {
  await mkdir(join(project, "dist/cli"), { recursive: true });
  await writeFile(
    join(project, "dist/cli/main.js"),
    'console.log("the built cli", process.argv.slice(2).join(" "));\n',
  );
}

/** Runs `command` with `args` in `cwd` and collects its output. */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      resolvePromise({ code, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() }),
    );
  });
}

describe("the bin before any build", () => {
  test("Node 24 runs the TypeScript sources", async () => {
    const project = await clone("node24", { nodeModules: true });
    const primes = await run(NODE24, ["bin/drainpipe.js", "primes", "5"], project);
    expect(primes).toEqual({ code: 0, stdout: "2\n3\n5\n7\n11\n", stderr: "" });
  });

  test.runIf(node20 !== undefined)("Node 20 runs the sources with the project's Node, exit codes and all", async () => {
    const project = await clone("node20", { nodeModules: true });
    const primes = await run(node20!, ["bin/drainpipe.js", "primes", "5"], project);
    expect(primes).toEqual({ code: 0, stdout: "2\n3\n5\n7\n11\n", stderr: "" });
    const usage = await run(node20!, ["bin/drainpipe.js", "primes", "many"], project);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("many");
  });

  test.runIf(node20 !== undefined)("Node 20 without the project's node_modules says what to run", async () => {
    const project = await clone("bare", { nodeModules: false });
    const help = await run(node20!, ["bin/drainpipe.js", "--help"], project);
    expect(help.code).toBe(1);
    expect(help.stdout).toBe("");
    const version = (await run(node20!, ["--version"], project)).stdout.trim();
    expect(help.stderr).toBe(
      `drainpipe: this clone is not built (no dist/cli/main.js), and Node ${version} ` +
        `cannot run the TypeScript sources. In ${project}/, run \`npm install\` (it brings the project's own Node), ` +
        "then `npx drainpipe …` (or `npm run build` once, for the built command)\n",
    );
  });
});

test("npx drainpipe in the project works before the build and, with the same npx cache, after it", {
  timeout: 120_000,
}, async () => {
  const project = await clone("npx", { nodeModules: true });
  // An npx cache of the test's own, as a fresh machine has: npx installs the project into it, bin link and all.
  const env = { npm_config_cache: join(directory, "npm-cache"), npm_config_update_notifier: "false" };
  const before = await run("npx", ["drainpipe", "primes", "3"], project, env);
  expect(before.stdout).toBe("2\n3\n5\n");
  expect(before.code).toBe(0);
  await build(project);
  const after = await run("npx", ["drainpipe", "primes", "3"], project, env);
  expect(after.stdout).toBe("the built cli primes 3\n");
});
