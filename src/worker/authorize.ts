import { HttpError } from "./http-error.ts";
import type { Settings } from "./settings.ts";

/**
 * Who may make a request, as each route declares it: anyone (`public`: the tus capabilities), a reader (`read`:
 * with the token, or anyone when reads are public), or a writer (`write`: always with the token).
 */
export type Access = "public" | "read" | "write";

/**
 * Checks that `request` may perform `access`. Public requests need nothing; writes always need
 * `Authorization: Bearer <API_TOKEN>`; reads too unless `publicReads`. With no token configured, authenticated
 * requests are refused with `503 auth-not-configured` (the worker never falls open by accident);
 * `AUTH_MODE = "open"` turns authentication off explicitly, for local development. Tokens are compared in constant
 * time (as SHA-256 digests, so neither the length nor the content leaks through timing).
 *
 * @example
 * ```ts
 * import type { Settings } from "./settings.ts";
 * declare const request: Request;
 * declare const settings: Settings;
 * await authorize(request, settings, request.method === "GET" ? "read" : "write");
 * ```
 */
export async function authorize(request: Request, settings: Settings, access: Access): Promise<void> {
  if (access === "public" || settings.authMode === "open") return;
  if (access === "read" && settings.publicReads) return;
  if (settings.apiToken === undefined) {
    throw new HttpError(
      503,
      "auth-not-configured",
      "Cannot authenticate: the worker has no API_TOKEN configured " +
        "(set the secret, or AUTH_MODE=open for local development)",
    );
  }
  const header = request.headers.get("Authorization");
  const challenge = { "WWW-Authenticate": 'Bearer realm="drainpipe"' };
  const match = header === null ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new HttpError(401, "unauthorized", "Cannot authenticate: send Authorization: Bearer <token>", {
      headers: challenge,
    });
  }
  if (!(await sameSecret(match[1]!, settings.apiToken))) {
    throw new HttpError(401, "unauthorized", "Cannot authenticate: the token is not valid", { headers: challenge });
  }
}

async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  const left = new Uint8Array(a);
  const right = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < left.length; i++) difference |= left[i]! ^ right[i]!;
  return difference === 0;
}
