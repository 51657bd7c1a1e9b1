/**
 * `npm start`: `wrangler dev` serving the worker on `http://127.0.0.1:8787` with its local R2 persisted in
 * `.wrangler/state`, after making sure `.dev.vars` holds an `API_TOKEN` and printing the lines to paste (see
 * `src/cli/dev-token.ts`) for the address it serves on. Flags after `--` go to `wrangler dev`, and those it names
 * win over the defaults: `npm start -- --port 8801` serves on port 8801 (and the printed lines say so).
 *
 * Usage: `npm start [-- <wrangler dev flags>]`, or `node scripts/start.ts [<wrangler dev flags>]`.
 *
 * @module
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { join, resolve } from "node:path";
import { prepareDevToken } from "../src/cli/dev-token.ts";
import { reportError } from "../src/cli/report-error.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** The `wrangler dev` flags `npm start` gives unless its own command line names them: address and state directory. */
export const DEV_DEFAULTS: Readonly<Record<string, string>> = {
  ip: "127.0.0.1",
  port: "8787",
  "persist-to": ".wrangler/state",
};

/** Environment variables `npm start` sets unless they are set: no calls to Cloudflare, no metrics. */
const DEV_ENVIRONMENT: Readonly<Record<string, string>> = {
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

/**
 * The value of the option `name` (kebab-case) in wrangler's command line `args`, written `--name value` or
 * `--name=value`, or in camelCase as wrangler also takes it; the last one when it is given twice.
 *
 * @example
 * ```ts
 * optionValue(["--port", "8801"], "port"); // "8801"
 * optionValue(["--persistTo=/tmp/state"], "persist-to"); // "/tmp/state"
 * optionValue(["--ip", "0.0.0.0"], "port"); // undefined
 * ```
 */
export function optionValue(args: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (const [index, arg] of args.entries()) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (match === null || match[1]!.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`) !== name) continue;
    value = match[2] ?? args[index + 1];
  }
  return value;
}

/**
 * The arguments of `wrangler` for `npm start` given `args`: `dev`, each of {@linkcode DEV_DEFAULTS} that `args` does
 * not name, then `args`.
 *
 * @example
 * ```ts
 * wranglerDevArguments(["--port", "8801"]).join(" "); // "dev --ip 127.0.0.1 --persist-to .wrangler/state --port 8801"
 * ```
 */
export function wranglerDevArguments(args: readonly string[]): string[] {
  const defaults = Object.entries(DEV_DEFAULTS).filter(([name]) => optionValue(args, name) === undefined);
  return ["dev", ...defaults.flatMap(([name, value]) => [`--${name}`, value]), ...args];
}

/**
 * The address `wrangler dev` serves on with `args` (what {@linkcode wranglerDevArguments} returns): its protocol,
 * address and port, an address that listens everywhere written as the loopback one, which a client can reach.
 *
 * @example
 * ```ts
 * devUrl(wranglerDevArguments([])); // "http://127.0.0.1:8787"
 * devUrl(wranglerDevArguments(["--port=8801", "--ip", "0.0.0.0"])); // "http://127.0.0.1:8801"
 * devUrl(wranglerDevArguments(["--ip", "::", "--local-protocol", "https"])); // "https://[::1]:8787"
 * ```
 */
export function devUrl(args: readonly string[]): string {
  const protocol = optionValue(args, "local-protocol") ?? "http";
  const ip = optionValue(args, "ip") ?? DEV_DEFAULTS.ip!;
  const host = ip === "0.0.0.0" ? "127.0.0.1" : ip === "::" ? "[::1]" : ip.includes(":") ? `[${ip}]` : ip;
  return `${protocol}://${host}:${optionValue(args, "port") ?? DEV_DEFAULTS.port}`;
}

/**
 * Runs `wrangler dev` with `args` in the working directory until it exits, then exits as it did. A Ctrl-C in the
 * terminal reaches wrangler too, which stops on it; this process waits for that.
 */
function runWrangler(args: readonly string[]): void {
  const env = { ...DEV_ENVIRONMENT, ...process.env };
  const child = spawn(join(ROOT, "node_modules/.bin/wrangler"), args, { stdio: "inherit", env });
  process.on("SIGINT", () => {});
  process.on("SIGTERM", () => child.kill("SIGTERM"));
  child.on("error", (error) => reportError(error));
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal])));
}

if (import.meta.main) {
  try {
    const args = wranglerDevArguments(process.argv.slice(2));
    console.log((await prepareDevToken(resolve(".dev.vars"), devUrl(args))).join("\n"));
    runWrangler(args);
  } catch (error) {
    reportError(error);
  }
}
