import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type EmbeddedWorker, startEmbeddedWorker } from "../../../src/cli/embedded-worker.ts";
import type { Manifest } from "../../../src/files/manifest.ts";
import { type CliRun, peakRssMiB, runBuiltCli } from "../cli-runner.ts";

// The CLI must stream a file far larger than it may hold from disk to the worker: its peak resident memory
// (reported by --debug-rss) must not grow with the file. A peak RSS depends on when the collector and the
// allocator give memory back (the same 200 MB upload peaks anywhere between 117 and 156 MiB on an idle
// machine), so no absolute bound is stable. Instead each command runs on a small and on a ten times larger file
// in the same test: a CLI that held the file would peak at least LARGE.bytes - SMALL.bytes (172 MiB) higher on
// the large one; one that streams it peaks within the collector's slack of the small one.
// It runs as users run it: the package's built bin (the sources under Node's type stripping weigh ~50 MiB more).

/** The first 2,100,000 primes and the first 21,000,000: about 20 MB and 200 MB. */
const SMALL = { count: 2_100_000, bytes: 18_145_905, last: 34_186_049 };
const LARGE = { count: 21_000_000, bytes: 203_484_450, last: 393_342_739 };
/**
 * How much higher the large file's run may peak than the small one's: well above the collector's slack (up to
 * 68 MiB seen), well below the 172 MiB more that holding the file would take.
 */
const MAX_PEAK_GROWTH_MIB = 120;

type Sample = typeof SMALL;

let directory: string;
let worker: EmbeddedWorker;
/** The runs of `primes` that wrote the small and the large file. */
let written: { small: CliRun; large: CliRun };
const fileOf = (sample: Sample) => join(directory, `primes-${sample.count}.txt`);

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), "drainpipe-big-"));
  written = { small: await primes(SMALL), large: await primes(LARGE) };
  worker = await startEmbeddedWorker({ stateDir: join(directory, "remote-state") });
}, 240_000);

afterAll(async () => {
  await worker?.stop();
  await rm(directory, { recursive: true, force: true });
});

async function primes(sample: Sample): Promise<CliRun> {
  const run = await runBuiltCli(["--debug-rss", "primes", String(sample.count), "-o", fileOf(sample)], {
    cwd: directory,
  });
  expect(run.code).toBe(0);
  expect((await stat(fileOf(sample))).size).toBe(sample.bytes);
  return run;
}

async function upload(sample: Sample, target: string[]): Promise<CliRun> {
  const run = await runBuiltCli(["--debug-rss", "upload", fileOf(sample), "--json", ...target], { cwd: directory });
  expect(run.code, run.stderr).toBe(0);
  const { manifest } = JSON.parse(run.stdout) as { manifest: Manifest };
  expect(manifest.totals.bytes).toBe(sample.bytes);
  expect(manifest.totals.numbers).toBe(sample.count);
  expect(manifest.parts.at(-1)?.last).toBe(sample.last);
  return run;
}

/** How much higher `large` peaked than `small`, in MiB. */
const peakGrowth = (small: CliRun, large: CliRun) => peakRssMiB(large) - peakRssMiB(small);

describe("memory does not grow with the file", () => {
  test("primes writes 200 MB with the peak of 20 MB", () => {
    expect(peakGrowth(written.small, written.large)).toBeLessThan(MAX_PEAK_GROWTH_MIB);
  });

  test("upload streams 200 MB to a worker at --url with the peak of 20 MB", { timeout: 300_000 }, async () => {
    const target = ["--url", worker.url, "--token", worker.token];
    const small = await upload(SMALL, target);
    const large = await upload(LARGE, target);
    expect(peakGrowth(small, large)).toBeLessThan(MAX_PEAK_GROWTH_MIB);
  });

  test("upload streams 200 MB to the embedded worker with the peak of 20 MB", { timeout: 300_000 }, async () => {
    const target = ["--state-dir", join(directory, "embedded-state")];
    const small = await upload(SMALL, target);
    const large = await upload(LARGE, target);
    expect(peakGrowth(small, large)).toBeLessThan(MAX_PEAK_GROWTH_MIB);
  });
});
