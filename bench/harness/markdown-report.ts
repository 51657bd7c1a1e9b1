/**
 * The markdown form of a benchmark run: the machine, then one table per scenario with its notes and checks.
 *
 * @module
 */
import { markdownTable } from "markdown-table";
import type { Machine } from "./machine.ts";
import type { ScenarioResult } from "./scenario-result.ts";

function cell(value: string | number | undefined): string {
  if (value === undefined) return "";
  const text = typeof value === "number" ? value.toLocaleString("en", { maximumFractionDigits: 3 }) : value;
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/**
 * One scenario as a markdown table followed by its notes and a one-line summary of its output checks.
 *
 * @example
 * ```ts
 * scenarioMarkdown(result); // "### Scenario 3: …\n\n| variant | median ms | … |\n…"
 * ```
 */
export function scenarioMarkdown(result: ScenarioResult, headingLevel = 3): string {
  const lines = [`${"#".repeat(headingLevel)} ${result.title}`, "", `Runtime: ${result.runtime}.`, ""];
  const body = result.rows.map((row) => result.columns.map((column) => cell(row[column])));
  lines.push(markdownTable([result.columns.map(cell), ...body], { alignDelimiters: false }), "");
  for (const note of result.notes) lines.push(`- ${note}`);
  const failed = result.checks.filter((check) => !check.ok);
  const failures = failed.map((check) => `${check.variant} (${check.detail})`).join("; ");
  lines.push(
    failed.length === 0
      ? `- Output checks: all ${result.checks.length} passed.`
      : `- Output checks: ${failed.length} of ${result.checks.length} FAILED: ${failures}.`,
  );
  return lines.join("\n");
}

/**
 * The machine as a one-line markdown description.
 *
 * @example
 * ```ts
 * machineMarkdown(describeMachine()); // "nproc 2, CPU Intel(R) Xeon(R) Processor, 23.5 GiB memory, Node 24.21.0, …"
 * ```
 */
export function machineMarkdown(machine: Machine): string {
  return (
    `nproc ${machine.nproc}, CPU ${machine.cpu}, ${machine.memoryGiB} GiB memory, Node ${machine.node}, ` +
    `workerd ${machine.workerd}, wrangler ${machine.wrangler}; load average ${machine.loadAverage} when the run ` +
    "started"
  );
}

/** A whole run: heading, date, machine, chart link and every scenario. */
export function runMarkdown(
  results: readonly ScenarioResult[],
  machine: Machine,
  date: string,
  chartFile: string,
): string {
  return [
    `# drainpipe benchmarks, ${date}`,
    "",
    `Machine: ${machineMarkdown(machine)}.`,
    "",
    `![speedups](${chartFile})`,
    "",
    ...results.flatMap((result) => [scenarioMarkdown(result, 2), ""]),
  ].join("\n");
}
