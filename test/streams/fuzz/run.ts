/**
 * Runs the differential fuzzer for any number of seeds, and shrinks the first failure to a minimal program.
 *
 * ```sh
 * npx node test/streams/fuzz/run.ts --seeds 20000            # seeds 0..19999, one program each
 * npx node test/streams/fuzz/run.ts --seeds 500 --from 1000  # seeds 1000..1499
 * npx node test/streams/fuzz/run.ts --seeds 5000 --chains     # pipe chains (source → transforms → sink) only
 * ```
 * Prints the counts (same, set aside for a known Node deviation, different) and, for a failure, the shrunk program
 * with both logs. Exit code 1 when a program differs.
 * @module
 */

import { parseArgs } from "node:util";
import { fuzzSeeds } from "./fuzz.ts";
import { chainProgramArb, programArb } from "./generators.ts";

const { values } = parseArgs({
  options: {
    seeds: { type: "string", default: "1000" },
    from: { type: "string", default: "0" },
    chains: { type: "boolean", default: false },
  },
});
const seeds = Number(values.seeds);
const from = Number(values.from);
const started = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
const programs = values.chains ? chainProgramArb : programArb;
const result = await fuzzSeeds(
  from,
  seeds,
  (done) => {
    if (done % 1000 === 0) process.stderr.write(`${done}/${seeds}\n`);
  },
  programs,
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpuStart);
console.log(
  `seeds ${from}..${from + seeds - 1}: ${result.same} same, ${result.deviations} set aside ` +
    `(${[...result.byDeviation].map(([name, count]) => `${name}: ${count}`).join(", ") || "none"}), ` +
    `${result.refereed} refereed, ${result.failure === undefined ? 0 : 1} different; ${seconds.toFixed(1)} s wall, ` +
    `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`,
);
for (const [signature, count] of result.byReferee) console.log(`  refereed ${count}: ${signature}`);
if (result.failure !== undefined) {
  console.log(result.failure);
  process.exitCode = 1;
}
