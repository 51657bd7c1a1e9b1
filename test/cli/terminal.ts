/**
 * The CLI run in a real terminal: a pane of a private tmux server, 120 columns wide, so that what the user sees
 * (progress bars redrawn in place, messages after Ctrl-C) can be read back as the screen shows it.
 *
 * @module
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { shellEnv } from "./cli-runner.ts";

const run = promisify(execFile);

/** How often the screen is read while waiting for something to appear on it. */
const POLL_MS = 100;

let sessions = 0;

/** A command running in a terminal of its own. */
export class Terminal {
  readonly #socket: string;
  readonly #env: NodeJS.ProcessEnv;

  private constructor(socket: string, env: NodeJS.ProcessEnv) {
    this.#socket = socket;
    this.#env = env;
  }

  /**
   * Starts `command` (a shell command line) in a new terminal in `cwd`, with the environment of the CLI tests.
   * When it exits, the terminal prints `[exit <code>]` and stays open to be read.
   */
  static async start(command: string, options: { cwd: string; env?: Record<string, string> }): Promise<Terminal> {
    const terminal = new Terminal(`drainpipe-test-${process.pid}-${sessions++}`, {
      ...shellEnv(options.env),
      TERM: "xterm-256color",
    });
    await terminal.#tmux(
      "new-session",
      "-d",
      "-x",
      "120",
      "-y",
      "40",
      "-c",
      options.cwd,
      `${command}; echo "[exit $?]"; sleep 600`,
    );
    return terminal;
  }

  /** What the terminal shows now, its lines joined with `\n`, trailing blanks removed. */
  async screen(): Promise<string> {
    const { stdout } = await this.#tmux("capture-pane", "-p", "-J");
    return stdout.replace(/\s+$/, "");
  }

  /** Waits until the screen matches `pattern` (the test's timeout bounds the wait) and returns the screen. */
  async waitFor(pattern: RegExp): Promise<string> {
    for (;;) {
      const screen = await this.screen();
      if (pattern.test(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Waits for the command to exit and returns its exit code and the final screen. */
  async exit(): Promise<{ code: number; screen: string }> {
    const screen = await this.waitFor(/\[exit \d+\]$/);
    return { code: Number(/\[exit (\d+)\]$/.exec(screen)?.[1]), screen };
  }

  /** Types keys as tmux names them (`C-c` for Ctrl-C). */
  async press(keys: string): Promise<void> {
    await this.#tmux("send-keys", keys);
  }

  /** Closes the terminal and whatever still runs in it. */
  async close(): Promise<void> {
    await this.#tmux("kill-server").catch(() => undefined);
  }

  #tmux(...args: string[]): Promise<{ stdout: string }> {
    return run("tmux", ["-f", "/dev/null", "-L", this.#socket, ...args], { env: this.#env });
  }
}
