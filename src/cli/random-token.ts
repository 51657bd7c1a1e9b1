import { randomBytes } from "node:crypto";

/**
 * A fresh random bearer token: 32 random bytes, base64url-encoded (43 characters).
 *
 * @example
 * ```ts
 * // 32 random bytes in base64url, say "q3Jx0…":
 * randomToken().length; // 43
 * ```
 */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}
