/**
 * Command lines the CLI prints for the user to paste (a resume, a sweep), written the way this run was started:
 * `npx drainpipe` under `npx` or `npm exec`, `drainpipe` from a bin link on the `PATH`, else the script's path.
 *
 * @module
 */
import { basename, delimiter, dirname, isAbsolute, relative, resolve } from "node:path";

/**
 * How this process was started, as a command to type: `npx drainpipe` when npm runs it (`npx`, `npm exec`: npm
 * sets `npm_command=exec`), `drainpipe` when it is a bin link in a `PATH` directory, else `node <script>` (the
 * sources or the built bin run directly) or the bin link's path.
 *
 * @example
 * ```ts
 * invocation({ npm_command: "exec" }, ["node", "/p/node_modules/.bin/drainpipe"]); // "npx drainpipe"
 * invocation({}, ["node", "/home/me/drainpipe/src/cli/main.ts"], "/home/me/drainpipe"); // "node src/cli/main.ts"
 * ```
 */
export function invocation(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
  cwd: string = process.cwd(),
): string {
  if (env.npm_command === "exec") return "npx drainpipe";
  const script = argv[1] ?? "drainpipe";
  if (basename(script) === "drainpipe") {
    const onPath = (env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && resolve(dir) === dirname(script));
    if (onPath) return "drainpipe";
    return shellWord(pathFrom(cwd, script, true));
  }
  return `node ${shellWord(pathFrom(cwd, script, false))}`;
}

/** `path` relative to `cwd` when it lies below it, else absolute; `./` in front for a command to run. */
function pathFrom(cwd: string, path: string, executable: boolean): string {
  const inside = relative(cwd, path);
  if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return path;
  return executable ? `./${inside}` : inside;
}

/**
 * `text` as one word of a POSIX shell command: as it is when it holds only safe characters, else in single
 * quotes.
 *
 * @example
 * ```ts
 * shellWord("primes.txt");       // "primes.txt"
 * shellWord("first 1e6 primes"); // "'first 1e6 primes'"
 * shellWord("it's");             // "'it'\\''s'"
 * ```
 */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:,=@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
