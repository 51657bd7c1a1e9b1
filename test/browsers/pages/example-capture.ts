/**
 * The first module of a library example's page (`examples.test.ts`): records what the example prints with
 * `console.log`, one line per call, and defines `globalThis.exampleOutput`, which resolves with those lines once
 * the page's bundle calls {@linkcode exampleFinished} after the example, or with the error that stopped it. (The
 * bundle imports that function, not just the module: the package's `sideEffects` list would let esbuild drop a
 * bare import of it.)
 *
 * @module
 */

/** What `globalThis.exampleOutput` resolves with. */
export interface ExampleOutput {
  lines: string[];
  /** The uncaught error or rejection that stopped the example, if one did. */
  error?: string;
}

const lines: string[] = [];
const log = console.log;
console.log = (...values: unknown[]) => {
  lines.push(values.map(String).join(" "));
  log(...values);
};
let settle: (output: ExampleOutput) => void = () => {};
(globalThis as unknown as { exampleOutput: Promise<ExampleOutput> }).exampleOutput = new Promise((resolve) => {
  settle = resolve;
});

/** Resolves `globalThis.exampleOutput` with what the example printed. */
export function exampleFinished(): void {
  settle({ lines });
}
addEventListener("error", (event) => settle({ lines, error: String((event as ErrorEvent).error ?? event.message) }));
addEventListener("unhandledrejection", (event) => settle({ lines, error: String(event.reason) }));
