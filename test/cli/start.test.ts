import { describe, expect, test } from "vitest";
import { devUrl, optionValue, wranglerDevArguments } from "../../scripts/start.ts";

// `npm start -- <flags>`: the flags go to wrangler dev, and those it names win over npm start's defaults (before,
// `npm start -- --port 8801` gave wrangler `--port 8787 --port 8801`, which it refuses).

describe("npm start's wrangler dev command line", () => {
  test("without flags: the defaults", () => {
    expect(wranglerDevArguments([])).toEqual([
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      "8787",
      "--persist-to",
      ".wrangler/state",
    ]);
  });

  test.each([[["--port", "8801"]], [["--port=8801"]]])("a port given as %j replaces the default, once", (flags) => {
    const args = wranglerDevArguments(flags);
    expect(args.filter((arg) => arg.startsWith("--port"))).toHaveLength(1);
    expect(optionValue(args, "port")).toBe("8801");
    expect(devUrl(args)).toBe("http://127.0.0.1:8801");
  });

  test("a state directory given in camelCase replaces the default; other flags pass through", () => {
    const args = wranglerDevArguments(["--persistTo", "/tmp/state", "--var", "PLAN:free"]);
    expect(args).toEqual([
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      "8787",
      "--persistTo",
      "/tmp/state",
      "--var",
      "PLAN:free",
    ]);
  });

  test("the printed address is one a client can reach", () => {
    expect(devUrl(wranglerDevArguments(["--ip", "0.0.0.0"]))).toBe("http://127.0.0.1:8787");
    expect(devUrl(wranglerDevArguments(["--ip", "::1", "--local-protocol=https"]))).toBe("https://[::1]:8787");
    expect(devUrl(wranglerDevArguments(["--ip", "192.168.1.20"]))).toBe("http://192.168.1.20:8787");
  });
});
