/**
 * The machine's own Node 20, which the library must keep running on: the tests and benchmarks that run code on
 * Node 20 find it here (the project's scripts run on the Node 24 of its devDependencies).
 *
 * Usage: `const node20 = findNode20();` then spawn it, or `node scripts/node20.ts` to print its path.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/**
 * The Node 20 binary: `$WPT_NODE20` when set, else the first `node` on `PATH` outside `node_modules` (or
 * `/usr/local/bin/node`) whose major version is 20; `undefined` when there is none.
 */
export function findNode20(): string | undefined {
  const fromEnvironment = process.env.WPT_NODE20;
  if (fromEnvironment !== undefined && fromEnvironment !== "") return fromEnvironment;
  const candidates = [
    "/usr/local/bin/node",
    ...(process.env.PATH ?? "").split(delimiter).map((directory) => join(directory, "node")),
  ];
  return candidates.find(
    (candidate) => !candidate.includes("node_modules") && existsSync(candidate) && majorVersionOf(candidate) === 20,
  );
}

/** The major version `binary --version` prints, or `undefined` when it does not run. */
function majorVersionOf(binary: string): number | undefined {
  try {
    const version = execFileSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return Number(/^v(\d+)\./.exec(version.trim())?.[1]);
  } catch {
    return undefined;
  }
}

if (import.meta.main) console.log(findNode20() ?? "no Node 20 found");
