/**
 * Where the page keeps the API token: in the tab's session storage, taken from the token field or from the URL
 * fragment `#token=…` (a fragment never reaches the server).
 *
 * @module
 */

/** The session storage key of the token. */
const STORAGE_KEY = "drainpipe-token";

/**
 * The API token of this tab. Reads and writes `sessionStorage`, so the token survives a reload of the page but
 * not the end of the tab.
 *
 * @example
 * ```ts
 * declare const storage: Storage; // the page passes sessionStorage
 * const tokens = new TokenStore(storage);
 * // Takes `#token=…` and removes it from the address bar.
 * tokens.adoptFragment(location, history);
 * // { Authorization: "Bearer …" }, or {} without a token.
 * const headers = tokens.authorization();
 * ```
 */
export class TokenStore {
  readonly #storage: Storage;

  /** Keeps the token in `storage` (the page passes `sessionStorage`). */
  constructor(storage: Storage) {
    this.#storage = storage;
  }

  /** The token, or `""` when there is none. */
  get token(): string {
    return this.#storage.getItem(STORAGE_KEY) ?? "";
  }

  /** Replaces the token; an empty or blank one forgets it. */
  set token(value: string) {
    const token = value.trim();
    if (token === "") this.#storage.removeItem(STORAGE_KEY);
    else this.#storage.setItem(STORAGE_KEY, token);
  }

  /**
   * Takes the token from the URL fragment (`#token=…`, also among other `key=value` pairs) when there is one, and
   * removes it from the address bar so that it is neither bookmarked nor shared by accident. Returns whether the
   * fragment held a token.
   */
  adoptFragment(location: Location, history: History): boolean {
    const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
    const token = fragment.get("token");
    if (token === null) return false;
    this.token = token;
    fragment.delete("token");
    const rest = fragment.toString();
    history.replaceState(history.state, "", `${location.pathname}${location.search}${rest === "" ? "" : `#${rest}`}`);
    return true;
  }

  /** The `Authorization` header that carries the token, or no header without one. */
  authorization(): Record<string, string> {
    const token = this.token;
    return token === "" ? {} : { Authorization: `Bearer ${token}` };
  }
}
