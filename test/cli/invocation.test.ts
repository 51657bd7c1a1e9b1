import { describe, expect, test } from "vitest";
import { invocation, shellWord } from "../../src/cli/invocation.ts";

describe("invocation", () => {
  test("is npx drainpipe under npx or npm exec", () => {
    expect(invocation({ npm_command: "exec" }, ["node", "/p/node_modules/.bin/drainpipe"], "/p")).toBe("npx drainpipe");
  });

  test("is drainpipe for a bin link in a PATH directory, else the link's path", () => {
    const argv = ["node", "/usr/local/bin/drainpipe"];
    expect(invocation({ PATH: "/usr/bin:/usr/local/bin" }, argv, "/home/me")).toBe("drainpipe");
    expect(invocation({ PATH: "/usr/bin" }, ["node", "/p/node_modules/.bin/drainpipe"], "/p")).toBe(
      "./node_modules/.bin/drainpipe",
    );
  });

  test("is node and the script for the sources or the built bin run directly", () => {
    expect(invocation({}, ["node", "/p/src/cli/main.ts"], "/p")).toBe("node src/cli/main.ts");
    expect(invocation({}, ["node", "/p/dist/cli/main.js"], "/elsewhere")).toBe("node /p/dist/cli/main.js");
  });
});

describe("shellWord", () => {
  test.each([
    ["primes.txt", "primes.txt"],
    ["/tmp/a-b_c/x.txt", "/tmp/a-b_c/x.txt"],
    ["first 1e6 primes.txt", "'first 1e6 primes.txt'"],
    ["it's", "'it'\\''s'"],
    ["$HOME", "'$HOME'"],
  ])("%s -> %s", (text, word) => {
    expect(shellWord(text)).toBe(word);
  });
});
