import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { smokeChecks } from "./smoke-checks.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** The smoke script, relative to the repository root. */
export const SMOKE_SCRIPT = "test/runtimes/smoke.ts";

/** How a spawned smoke script ended. */
export interface SmokeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Path of a binary in node_modules/.bin. */
export function localBinary(name: string): string {
  return fileURLToPath(new URL(`../../node_modules/.bin/${name}`, import.meta.url));
}

/** Why a runtime's smoke test is skipped, or `undefined` when its binary is installed. */
export function missingRuntime(name: string): string | undefined {
  return existsSync(localBinary(name)) ? undefined : `${name} is not installed (no node_modules/.bin/${name})`;
}

/** Runs `binary ...args` in the repository root, never rejecting. */
export function runSmokeScript(binary: string, args: readonly string[]): Promise<SmokeRun> {
  return new Promise((resolve) => {
    execFile(
      binary,
      [...args],
      { cwd: root, env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Asserts that a run passed every smoke check on the runtime whose user agent starts with `agent`. */
export function expectAllChecksPassed(run: SmokeRun, agent: string): void {
  const lines = run.stdout.trim().split("\n");
  for (const { name } of smokeChecks) expect(lines, run.stderr).toContain(`ok ${name}`);
  expect(lines.filter((line) => line.startsWith("not ok"))).toEqual([]);
  expect(lines.at(-1)).toMatch(new RegExp(`^smoke: ${smokeChecks.length}/${smokeChecks.length} passed on ${agent}/`));
  expect(run.code).toBe(0);
}
