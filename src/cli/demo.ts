/**
 * `npm run demo`: the main job end to end, through the same code as the `drainpipe` command. Writes the first
 * 1,000,000 primes (`DEMO_PRIMES` to change) to a file in a temporary directory, starts the worker embedded
 * in local workerd (R2 persisted under `.wrangler/state`, as `npm start` keeps it), uploads the file over
 * real local HTTP as `primes-<count>`, prints the manifest summary and the throughput, and verifies the
 * stored content against the file byte for byte. Exits 1 when anything fails or differs.
 *
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "./cli-error.ts";
import { writePrimes } from "./commands/primes.ts";
import { describeVerification, verifyFile } from "./commands/verify.ts";
import { openConnection } from "./connection.ts";
import { formatBytes, formatCount, formatSeconds } from "./format.ts";
import { openFileStream } from "./local-file.ts";
import { summarizeManifest } from "./manifest-summary.ts";
import { printLines } from "./output.ts";
import { progressEnabled } from "./progress.ts";
import { parseQuantity } from "./quantity.ts";
import { reportError } from "./report-error.ts";
import { uploadFile } from "./upload/upload-file.ts";
import { describeThroughput } from "./upload/upload-result.ts";

async function demo(count: number): Promise<void> {
  const progress = progressEnabled(undefined);
  const directory = await mkdtemp(join(tmpdir(), "drainpipe-demo-"));
  try {
    const file = join(directory, `primes-${count}.txt`);
    const primes = await writePrimes(count, file, { progress });
    printLines([
      `generated the first ${formatCount(count)} primes: ${formatBytes(primes.bytes)} ` +
        `in ${formatSeconds(primes.seconds)} (${file})`,
    ]);

    const connection = await openConnection({});
    try {
      printLines([
        `worker embedded in local workerd at ${connection.client.url} (R2 persisted in ${connection.stateDir})`,
      ]);
      const name = `primes-${count}`;
      const upload = await uploadFile(connection.client, await openFileStream(file), { name, progress });
      printLines([...summarizeManifest(upload.manifest), describeThroughput(upload)]);
      const verification = await verifyFile(connection.client, name, await openFileStream(file), { progress });
      printLines(describeVerification(verification));
      if (!verification.identical) process.exitCode = 1;
    } finally {
      await connection.close();
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

function demoCount(text: string | undefined): number {
  const count = text === undefined ? 1_000_000 : parseQuantity(text, { units: false });
  if (count === undefined || count < 1) {
    throw new UsageError(`Cannot run the demo on DEMO_PRIMES=${text}: expected a positive whole number such as 1e7`);
  }
  return count;
}

try {
  await demo(demoCount(process.env.DEMO_PRIMES));
} catch (error) {
  reportError(error);
}
