import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../../src/cli/embedded-worker.ts";
import type { Manifest } from "../../../src/files/manifest.ts";
import { peakRssMiB, runBuiltCli } from "../cli-runner.ts";

// A file far larger than the CLI may hold: the first 21,000,000 primes, 203,484,450 bytes. The CLI must stream
// it from disk to the worker; its peak resident memory (reported by --debug-rss) must not grow with the file.
// It runs as users run it: the package's built bin (the sources under Node's type stripping weigh ~50 MiB more).
const COUNT = 21_000_000;
const BYTES = 203_484_450;
/** The bound for a CLI talking to a worker elsewhere: far below the file's size. */
const MAX_PEAK_MIB = 150;
/**
 * What the upload may add to the peak of an embedded-mode run that uploads nothing (wrangler alone weighs
 * ~260 MiB).
 */
const MAX_GROWTH_MIB = 64;

let directory: string;
let file: string;
let worker: EmbeddedWorker;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-big-"));
  file = join(directory, "primes.txt");
  const primes = await runBuiltCli(["--debug-rss", "primes", String(COUNT), "-o", file], { cwd: directory });
  expect(primes.code).toBe(0);
  expect((await stat(file)).size).toBe(BYTES);
  expect(peakRssMiB(primes)).toBeLessThan(MAX_PEAK_MIB);
  worker = await startEmbeddedWorker({ stateDir: join(directory, "remote-state") });
}, 180_000);

afterAll(async () => {
  await worker?.stop();
  await rm(directory, { recursive: true, force: true });
});

function expectWholeFileStored(manifest: Manifest): void {
  expect(manifest.totals.bytes).toBe(BYTES);
  expect(manifest.totals.numbers).toBe(COUNT);
  expect(manifest.parts.at(-1)?.last).toBe(393_342_739);
}

describe("upload of a 200 MB file", () => {
  test(`streams it to a worker at --url with a peak RSS below ${MAX_PEAK_MIB} MiB`, { timeout: 300_000 }, async () => {
    const run = await runBuiltCli(
      ["--debug-rss", "upload", file, "--json", "--url", worker.url, "--token", worker.token],
      {
        cwd: directory,
      },
    );
    expect(run.code).toBe(0);
    expectWholeFileStored((JSON.parse(run.stdout) as { manifest: Manifest }).manifest);
    expect(peakRssMiB(run)).toBeLessThan(MAX_PEAK_MIB);
  });

  test(`streams it to the embedded worker with the peak RSS growing less than ${MAX_GROWTH_MIB} MiB`, {
    timeout: 300_000,
  }, async () => {
    const stateDir = join(directory, "embedded-state");
    const idle = await runBuiltCli(["--debug-rss", "ls", "--state-dir", stateDir], { cwd: directory });
    expect(idle.code).toBe(0);
    const run = await runBuiltCli(["--debug-rss", "upload", file, "--json", "--state-dir", stateDir], {
      cwd: directory,
    });
    expect(run.code).toBe(0);
    expectWholeFileStored((JSON.parse(run.stdout) as { manifest: Manifest }).manifest);
    expect(peakRssMiB(run) - peakRssMiB(idle)).toBeLessThan(MAX_GROWTH_MIB);
  });
});
