/**
 * The registry of benchmark scenarios: every file of this folder named `<nn>-<id>.ts` (two digits, a dash, the
 * scenario's id), in the order of its number. Each exports its {@linkcode Scenario} as `scenario`.
 *
 * Adding a scenario is adding one such file: `npm run bench` and `npm run bench:quick` (`bench/run.ts`),
 * `docs/benchmarks.md` and `bench/test/quick.test.ts` all loop over {@linkcode loadScenarios}. Other files
 * here (`<nn>-<id>.bench.ts`, the vitest benchmarks some scenarios start) are not scenarios.
 *
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { SCENARIO_FILE, type Scenario } from "../harness/scenario.ts";

/** A scenario as the registry found it. */
export interface RegisteredScenario {
  /** Its number: the two digits its file name starts with. */
  number: number;
  /** Its file, relative to the project root, e.g. `bench/scenarios/03-number-pipeline.ts`. */
  file: string;
  /** What the file exports as `scenario`. */
  scenario: Scenario<Record<string, number | undefined>>;
}

/** Whether `value` looks like a {@linkcode Scenario} (the fields the registry and its users read). */
function isScenario(value: unknown): value is Scenario {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    ["id", "title", "measures", "why"].every((key) => typeof candidate[key] === "string") &&
    typeof candidate.options === "object" &&
    typeof candidate.quick === "object" &&
    typeof candidate.run === "function"
  );
}

/**
 * Loads every scenario of `directory` (this folder by default), ordered by number.
 *
 * @throws {Error} when a scenario file exports no `scenario`, when its id differs from its file name, or when two
 * files share a number.
 *
 * @example
 * ```ts
 * for (const { number, scenario } of await loadScenarios()) console.log(number, scenario.title);
 * ```
 */
export async function loadScenarios(directory: string = import.meta.dirname): Promise<RegisteredScenario[]> {
  const files = (await readdir(directory)).filter((name) => SCENARIO_FILE.test(name)).sort();
  const registered: RegisteredScenario[] = [];
  for (const name of files) {
    const [, digits, id] = SCENARIO_FILE.exec(name)!;
    const file = `bench/scenarios/${name}`;
    const module = (await import(join(directory, name))) as { scenario?: unknown };
    if (!isScenario(module.scenario)) throw new Error(`Cannot register ${file}: it exports no \`scenario\` object`);
    if (module.scenario.id !== id) {
      throw new Error(`Cannot register ${file}: its scenario's id is "${module.scenario.id}", not "${id}"`);
    }
    const number = Number(digits);
    const twin = registered.find((other) => other.number === number);
    if (twin) throw new Error(`Cannot register ${file}: ${twin.file} has the same number`);
    registered.push({ number, file, scenario: module.scenario as RegisteredScenario["scenario"] });
  }
  return registered;
}
