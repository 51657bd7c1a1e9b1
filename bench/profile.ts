/**
 * CPU profile of one of scenario 1's per-chunk pipe shapes (`bench/workloads/chunk-pipe-shapes.ts`) with one stream
 * implementation, in Node or inside workerd, as the performance work uses them: writes the `.cpuprofile` (open it in
 * Chrome DevTools or VS Code) to `bench/.cache/profiles/` and prints the functions with the most self time.
 *
 * `npx node bench/profile.ts --shape "TransformStream + pipeTo" [--implementation drainpipe] [--count 1e6]
 * [--rounds 5] [--top 20] [--worker]`
 *
 * In Node, drainpipe runs from `src/streams` (Node strips the types; no bundle, so module boundaries cost what
 * they cost in an unbundled program). With `--worker`, scenario 8's worker runs the shape inside workerd,
 * bundled by wrangler as a deployment is, and the profile is taken through the inspector wrangler starts for it.
 * One untimed round comes first, so the profile shows optimized code.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { type CpuProfile, profileOverInspector, profileThisProcess, selfTimeTable } from "./harness/cpu-profile.ts";
import { implementationsFor } from "./implementations/registry.ts";
import { startChunkPipeWorker } from "./scenarios/08-chunk-pipes-in-worker.ts";
import { expectedTally, PIPE_SHAPES, shapesFor } from "./workloads/chunk-pipe-shapes.ts";

const { values: args } = parseArgs({
  options: {
    shape: { type: "string" },
    implementation: { type: "string", default: "drainpipe" },
    count: { type: "string", default: "1000000" },
    rounds: { type: "string", default: "5" },
    top: { type: "string", default: "20" },
    worker: { type: "boolean", default: false },
    "inspector-port": { type: "string", default: "9239" },
  },
});

const shapeNames = PIPE_SHAPES.map((shape) => `"${shape.name}"`).join(", ");
const implementation = implementationsFor(args.worker ? "workerd" : "node").find(
  (candidate) => candidate.name === args.implementation,
);
if (implementation === undefined) throw new Error(`Cannot profile: no implementation "${args.implementation}"`);
const shape = shapesFor(implementation).find((candidate) => candidate.name === args.shape);
if (shape === undefined) {
  throw new Error(`Cannot profile: ${implementation.name} has no shape "${args.shape}" (shapes: ${shapeNames})`);
}
const count = Number(args.count);
const rounds = Number(args.rounds);
if (!Number.isSafeInteger(count) || count < 1 || !Number.isSafeInteger(rounds) || rounds < 1) {
  throw new Error("Cannot profile: --count and --rounds must be positive integers");
}

/** Checks a round's tally, so that a profile of a broken run is never reported. */
function check(tally: { count: number; sum: number }): void {
  const expected = expectedTally(count);
  if (tally.count !== expected.count || tally.sum !== expected.sum) {
    throw new Error(`Cannot trust the profile: a round saw ${JSON.stringify(tally)}, not ${JSON.stringify(expected)}`);
  }
}

let profile: CpuProfile;
if (args.worker) {
  const port = Number(args["inspector-port"]);
  const worker = await startChunkPipeWorker(implementation.name, port);
  try {
    const query = new URLSearchParams({ shape: shape.name, count: String(count) });
    const round = async (): Promise<void> => check(await (await fetch(`${worker.url}/run?${query}`)).json());
    await round();
    profile = await profileOverInspector(port, async () => {
      for (let i = 0; i < rounds; i++) await round();
    });
  } finally {
    await worker.stop();
  }
} else {
  check(await shape.run(implementation, count));
  profile = await profileThisProcess(async () => {
    for (let i = 0; i < rounds; i++) check(await shape.run(implementation, count));
  });
}

const where = args.worker ? "workerd" : "node";
const directory = resolve(import.meta.dirname, ".cache/profiles");
mkdirSync(directory, { recursive: true });
const file = resolve(directory, `${where}-${implementation.name}-${shape.name}.cpuprofile`.replace(/[^\w.-]+/g, "-"));
writeFileSync(file, JSON.stringify(profile));
console.log(`${shape.name}, ${implementation.name}, ${where}: ${rounds} × ${count} chunks; profile: ${file}`);
for (const row of selfTimeTable(profile, Number(args.top))) {
  console.log(`${row.percent.toFixed(1).padStart(5)} %  ${row.functionName}  ${row.location}`);
}
