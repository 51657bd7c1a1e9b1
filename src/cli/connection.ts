/**
 * Which worker a command talks to: a deployed one given by `--url` (with `--token`), or by default the worker
 * embedded in local workerd with its R2 bucket persisted on disk.
 *
 * @module
 */
import { resolve } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { CliError } from "./cli-error.ts";
import { runningDevWorker } from "./dev-worker.ts";
import { startEmbeddedWorker } from "./embedded-worker.ts";
import { shellWord } from "./invocation.ts";
import { findStateDir } from "./state-dir.ts";
import { WorkerClient } from "./worker-client.ts";

/** The connection options every command that talks to the worker accepts. */
export interface ConnectionOptions {
  /** A deployed worker's base URL; the embedded worker when absent. */
  url?: string | undefined;
  /** The bearer token for `url`. */
  token?: string | undefined;
  /** Where the embedded worker persists its state. */
  stateDir?: string | undefined;
}

/** An open connection to a worker. */
export interface Connection {
  /** The worker's API. */
  client: WorkerClient;
  /** Where the embedded worker keeps its state; `undefined` for a worker at a URL. */
  stateDir: string | undefined;
  /** Stops the embedded worker, if one was started. */
  close(): Promise<void>;
}

/**
 * Adds `--url`, `--token` and `--state-dir` to `command` (`--url` and `--token` also read `DRAINPIPE_URL` and
 * `DRAINPIPE_TOKEN`).
 *
 * @example
 * ```ts
 * import type { Command } from "commander";
 * declare const program: Command;
 * addConnectionOptions(program.command("ls")).action(async (options: ConnectionOptions) => {
 *   console.log(await withConnection(options, (client) => client.list()));
 * });
 * ```
 */
export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--url <url>", "base URL of a deployed worker (default: the worker embedded in local workerd)")
        .env("DRAINPIPE_URL")
        .argParser(parseUrl),
    )
    .addOption(new Option("--token <token>", "bearer token sent to the worker at --url").env("DRAINPIPE_TOKEN"))
    .addOption(
      new Option(
        "--state-dir <dir>",
        "where the embedded worker persists its local R2 (default: the nearest .wrangler/state in this directory " +
          "or above, as npm start keeps it; else one in the project root or here)",
      ).conflicts("url"),
    );
}

/**
 * Connects to the worker at `options.url`; else to the embedded one: the one `drainpipe dev` keeps running on
 * the state directory, or one started now (a few seconds) with a fresh random token. Says on stderr which state
 * directory it uses.
 *
 * @throws {CliError} when the embedded worker cannot start.
 *
 * @example
 * ```ts
 * declare const token: string;
 * const connection = await openConnection({ url: "https://drainpipe.example.workers.dev", token });
 * ```
 */
export async function openConnection(options: ConnectionOptions): Promise<Connection> {
  if (options.url !== undefined) {
    return { client: new WorkerClient(options.url, options.token), stateDir: undefined, close: async () => {} };
  }
  const stateDir = resolve(options.stateDir ?? findStateDir());
  const dev = await runningDevWorker(stateDir);
  if (dev !== undefined) {
    process.stderr.write(`drainpipe: using drainpipe dev's worker (pid ${dev.pid}) with its state in ${stateDir}\n`);
    return { client: new WorkerClient(dev.url, dev.token), stateDir, close: async () => {} };
  }
  process.stderr.write(`drainpipe: starting the embedded worker (local workerd) with its state in ${stateDir}\n`);
  const worker = await startEmbeddedWorker({ stateDir }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(`Cannot start the embedded worker: ${reason}`, { code: "embedded-worker-failed", cause: error });
  });
  const client = new WorkerClient(worker.url, worker.token);
  // The repair after a crash: what earlier runs left behind (a killed upload) goes, once its lease has ended.
  await client.sweep().catch(async (error: unknown) => {
    await worker.stop();
    throw error;
  });
  return { client, stateDir, close: () => worker.stop() };
}

/**
 * Runs `work` with a connection and closes it afterwards, however `work` ends.
 *
 * @example
 * ```ts
 * declare const options: ConnectionOptions;
 * const files = await withConnection(options, (client) => client.list());
 * ```
 */
export async function withConnection<T>(
  options: ConnectionOptions,
  work: (client: WorkerClient) => Promise<T>,
): Promise<T> {
  const connection = await openConnection(options);
  try {
    return await work(connection.client);
  } finally {
    await connection.close();
  }
}

function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`Cannot use "${text}" as a URL: expected an absolute http(s) URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidArgumentError(
      `Cannot use "${text}" as a URL: the scheme must be http or https, not ${url.protocol}`,
    );
  }
  return url.href;
}

/**
 * The connection options `command` was given on its command line, as words of a command to run again: `--url`,
 * `--token` (as the placeholder `<token>`: a token is never printed) and `--state-dir`; none of those that came from
 * the environment or the defaults.
 *
 * @example
 * ```ts
 * import type { Command } from "commander";
 * declare const command: Command; // run as: drainpipe get primes --url https://w.example --token s3cret
 * connectionWords(command); // ["--url", "https://w.example", "--token", "<token>"]
 * ```
 */
export function connectionWords(command: Command): string[] {
  const options = command.opts<ConnectionOptions>();
  const given = (key: string) => command.getOptionValueSource(key) === "cli";
  const words: string[] = [];
  if (given("url") && options.url !== undefined) words.push("--url", shellWord(options.url));
  if (given("token")) words.push("--token", "<token>");
  if (given("stateDir") && options.stateDir !== undefined) words.push("--state-dir", shellWord(options.stateDir));
  return words;
}
