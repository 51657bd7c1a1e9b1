import { describe, expect, test } from "vitest";
import { TokenStore } from "../../src/page/token-store.ts";

/** `sessionStorage` in memory. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

/** A location at `url` and a history whose `replaceState` moves it. */
function addressBar(url: string): { location: Location; history: History } {
  let current = new URL(url);
  const location = {
    get hash() {
      return current.hash;
    },
    get pathname() {
      return current.pathname;
    },
    get search() {
      return current.search;
    },
    get href() {
      return current.href;
    },
  } as Location;
  const history = {
    state: null,
    replaceState: (_state: unknown, _unused: string, next: string) => {
      current = new URL(next, current);
    },
  } as unknown as History;
  return { location, history };
}

describe("TokenStore", () => {
  test("takes #token= from the fragment and removes it from the address bar, keeping the rest", () => {
    const tokens = new TokenStore(memoryStorage());
    const { location, history } = addressBar("http://127.0.0.1:8787/?x=1#token=s3cr%2Bt&view=files");
    expect(tokens.adoptFragment(location, history)).toBe(true);
    expect(tokens.token).toBe("s3cr+t");
    expect(location.href).toBe("http://127.0.0.1:8787/?x=1#view=files");
    expect(tokens.authorization()).toEqual({ Authorization: "Bearer s3cr+t" });
  });

  test("a fragment without a token changes nothing; a blank token is no token", () => {
    const tokens = new TokenStore(memoryStorage());
    tokens.token = "kept";
    const { location, history } = addressBar("http://127.0.0.1:8787/#view=files");
    expect(tokens.adoptFragment(location, history)).toBe(false);
    expect(tokens.token).toBe("kept");
    tokens.token = "  ";
    expect(tokens.token).toBe("");
    expect(tokens.authorization()).toEqual({});
  });
});
