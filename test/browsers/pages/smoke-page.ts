/**
 * The runtime smoke checks (`test/runtimes/smoke-checks.ts`, run on Node, Deno, Bun and workerd) in a page or a
 * dedicated worker of a browser (`examples.test.ts`): in a page, `globalThis.smokeResults(inWorker)` runs them
 * here, or starts this same script as a dedicated worker and has them run there; each resolves with one
 * {@linkcode SmokeOutcome} per check.
 *
 * @module
 */
import { runSmokeChecks } from "../../runtimes/smoke-checks.ts";

/** One check's name, and why it failed (`null` when it passed). */
export interface SmokeOutcome {
  name: string;
  error: string | null;
}

async function outcomes(): Promise<SmokeOutcome[]> {
  return (await runSmokeChecks()).map(({ name, error }) => ({
    name,
    error: error === undefined ? null : error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  }));
}

if (typeof document === "undefined") {
  outcomes().then((results) => postMessage(results));
} else {
  const source = (document.currentScript as HTMLScriptElement).src;
  (globalThis as unknown as { smokeResults: (inWorker: boolean) => Promise<SmokeOutcome[]> }).smokeResults = (
    inWorker,
  ) =>
    inWorker
      ? new Promise((resolve, reject) => {
          const worker = new Worker(source);
          worker.onmessage = (event: MessageEvent<SmokeOutcome[]>) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(`the worker failed: ${event.message}`));
        })
      : outcomes();
}
