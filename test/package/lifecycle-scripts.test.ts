import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";

const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

test("installing the package runs no script of its own; packing builds it", () => {
  const installTime = ["preinstall", "install", "postinstall", "prepare"];
  expect(Object.keys(manifest.scripts).filter((name) => installTime.includes(name))).toEqual([]);
  expect(manifest.scripts.prepack).toBe("npm run build");
});
