/**
 * `npm start`'s token step (see `scripts/start.ts`): makes sure `.dev.vars` (in the working directory, the project
 * root under npm) gives `wrangler dev` an `API_TOKEN`, creating the file with a fresh random token when it does not
 * exist, and says what to paste: the token, `curl` and `drainpipe` lines and the upload page's address (with the token
 * in its fragment, which the browser never sends), at the address the worker is served on. An existing file is never
 * changed.
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseEnv } from "node:util";
import { randomToken } from "./random-token.ts";

async function readDevVars(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Creates `path` (a `.dev.vars` file) with a random `API_TOKEN` when it does not exist, and returns the lines to print:
 * what it did or found, then the token and the lines to paste that reach the worker at `url`.
 *
 * @example
 * ```ts
 * import { mkdtemp } from "node:fs/promises";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const path = join(await mkdtemp(join(tmpdir(), "dev-vars-")), ".dev.vars");
 * const lines = await prepareDevToken(path, "http://127.0.0.1:8801");
 * lines[0]; // "drainpipe: created .dev.vars with a new random API_TOKEN"
 * lines.at(-1)?.startsWith("  the upload page: http://127.0.0.1:8801/#token="); // true
 * ```
 */
export async function prepareDevToken(path: string, url: string): Promise<string[]> {
  const existing = await readDevVars(path);
  if (existing === undefined) {
    const token = randomToken();
    await writeFile(
      path,
      `# Local secrets for wrangler dev (npm start). Not committed: .dev.vars is gitignored.\nAPI_TOKEN=${token}\n`,
      {
        mode: 0o600,
        flag: "wx",
      },
    );
    return ["drainpipe: created .dev.vars with a new random API_TOKEN", ...instructions(token, url)];
  }
  const vars = parseEnv(existing);
  const token = vars.API_TOKEN;
  if (token !== undefined && token !== "") {
    return ["drainpipe: using the API_TOKEN from .dev.vars", ...instructions(token, url)];
  }
  if (vars.AUTH_MODE === "open") {
    return [
      "drainpipe: .dev.vars sets AUTH_MODE=open: the local worker needs no token",
      ...instructions(undefined, url),
    ];
  }
  return [
    "drainpipe: .dev.vars has no API_TOKEN line, so the worker will refuse requests (503 auth-not-configured).",
    "  Add one (API_TOKEN=<a long random string>), or delete .dev.vars to have a token made for you.",
  ];
}

/** The token (when there is one) and the lines to paste that reach the worker at `url`. */
function instructions(token: string | undefined, url: string): string[] {
  const auth = token === undefined ? "" : ` -H "Authorization: Bearer ${token}"`;
  const cliToken = token === undefined ? "" : ` --token ${token}`;
  return [
    ...(token === undefined ? [] : [`  token: ${token}`]),
    `  once wrangler says "Ready", try (make the file with: npx drainpipe primes 1000000 -o primes.txt):`,
    `  curl -H 'Expect:'${auth} --data-binary @primes.txt '${url}/files/primes'`,
    `  npx drainpipe ls --url ${url}${cliToken}`,
    `  the upload page: ${url}/${token === undefined ? "" : `#token=${token}`}`,
  ];
}
