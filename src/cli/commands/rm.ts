/**
 * `drainpipe rm <name>`: removes a stored file and every object under its name, including what dead uploads
 * left there.
 *
 * @module
 */
import type { Command } from "commander";
import { addConnectionOptions, type ConnectionOptions, withConnection } from "../connection.ts";
import { plural } from "../format.ts";
import { printJson, printLines } from "../output.ts";
import type { RemoveOutcome } from "../worker-client.ts";

/**
 * What `rm` says it did.
 *
 * @example
 * ```ts
 * describeRemoval("primes", { existed: true, remnants: 0 }); // 'removed "primes"'
 * describeRemoval("primes", { existed: false, remnants: 7 });
 * // 'removed 7 leftover objects of "primes" (dead uploads; there was no complete file)'
 * ```
 */
export function describeRemoval(name: string, outcome: RemoveOutcome): string {
  if (outcome.existed) return `removed "${name}"`;
  const objects = plural(outcome.remnants, "leftover object");
  return `removed ${objects} of "${name}" (dead uploads; there was no complete file)`;
}

/** Registers `rm` on `program`. */
export function registerRm(program: Command): void {
  addConnectionOptions(
    program
      .command("rm")
      .description("remove a stored file and all its parts (or the leftovers of dead uploads under its name)")
      .argument("<name>", "the stored file's name")
      .option("--json", "print { name, removed, remnants } as JSON"),
  ).action(async (name: string, options: ConnectionOptions & { json?: boolean }) => {
    const outcome = await withConnection(options, (client) => client.remove(name));
    if (options.json) printJson({ name, removed: outcome.existed, remnants: outcome.remnants });
    else printLines([describeRemoval(name, outcome)]);
  });
}
