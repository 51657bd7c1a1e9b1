/**
 * `npm start`'s `prestart` step: makes sure `.dev.vars` (in the working directory, the project root under npm)
 * gives `wrangler dev` an `API_TOKEN`, creating the file with a fresh random token when it does not exist,
 * then prints the token, ready-to-paste `curl` and `drainpipe` lines and the upload page's address (with the token in
 * its fragment, which the browser never sends). An existing file is never changed.
 *
 * @module
 */
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseEnv } from "node:util";
import { printLines } from "./output.ts";
import { randomToken } from "./random-token.ts";
import { reportError } from "./report-error.ts";

/** Where `npm start` serves the worker (see the `start` script). */
const DEV_URL = "http://127.0.0.1:8787";

async function readDevVars(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined;
    throw error;
  }
}

async function prepareDevToken(path: string): Promise<void> {
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
    printLines([`drainpipe: created .dev.vars with a new random API_TOKEN`]);
    printInstructions(token);
    return;
  }
  const vars = parseEnv(existing);
  const token = vars.API_TOKEN;
  if (token !== undefined && token !== "") {
    printLines([`drainpipe: using the API_TOKEN from .dev.vars`]);
    printInstructions(token);
  } else if (vars.AUTH_MODE === "open") {
    printLines([`drainpipe: .dev.vars sets AUTH_MODE=open: the local worker needs no token`]);
    printInstructions(undefined);
  } else {
    printLines([
      `drainpipe: .dev.vars has no API_TOKEN line, so the worker will refuse requests (503 auth-not-configured).`,
      `  Add one (API_TOKEN=<a long random string>), or delete .dev.vars to have a token made for you.`,
    ]);
  }
}

function printInstructions(token: string | undefined): void {
  const auth = token === undefined ? "" : ` -H "Authorization: Bearer ${token}"`;
  const cliToken = token === undefined ? "" : ` --token ${token}`;
  printLines([
    ...(token === undefined ? [] : [`  token: ${token}`]),
    `  once wrangler says "Ready", try (make the file with: npx drainpipe primes 1000000 -o primes.txt):`,
    `  curl -H 'Expect:'${auth} --data-binary @primes.txt '${DEV_URL}/files/primes'`,
    `  npx drainpipe ls --url ${DEV_URL}${cliToken}`,
    `  the upload page: ${DEV_URL}/${token === undefined ? "" : `#token=${token}`}`,
  ]);
}

try {
  await prepareDevToken(resolve(".dev.vars"));
} catch (error) {
  reportError(error);
}
