/**
 * A hand-written SVG bar chart of the speedups of every scenario, on a log₂ axis centred on 1× (bars to the
 * right are faster than the scenario's baseline, to the left slower), with published ratios drawn as thin
 * bars under ours where a scenario has them.
 *
 * @module
 */
import type { ScenarioResult } from "./scenario-result.ts";

const WIDTH = 900;
const LABEL_WIDTH = 380;
const BAR_HEIGHT = 14;
const ROW_GAP = 6;
const GROUP_GAP = 28;
/** Half the axis spans this many doublings (1/32× … 32×). */
const OCTAVES = 5;

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function formatRatio(value: number): string {
  return `${value >= 10 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3)}×`;
}

/**
 * Renders the chart of `results` as an SVG document.
 *
 * @example
 * ```ts
 * await writeFile("bench/results/2026-11-22-node.svg", speedupChart(results));
 * ```
 */
export function speedupChart(results: readonly ScenarioResult[]): string {
  const plotLeft = LABEL_WIDTH;
  const plotWidth = WIDTH - LABEL_WIDTH - 70;
  const centre = plotLeft + plotWidth / 2;
  const x = (ratio: number) =>
    centre + (Math.max(-OCTAVES, Math.min(OCTAVES, Math.log2(ratio))) / OCTAVES) * (plotWidth / 2);
  const parts: string[] = [];
  let y = 40;
  for (const result of results) {
    parts.push(
      `<text x="8" y="${y}" font-weight="bold">${escapeXml(result.title)} (${escapeXml(result.runtime)})</text>`,
    );
    y += 10;
    for (const speedup of result.speedups) {
      const rowHeight = speedup.published === undefined ? BAR_HEIGHT : BAR_HEIGHT + 6;
      const end = x(speedup.value);
      parts.push(
        `<text x="${LABEL_WIDTH - 8}" y="${y + BAR_HEIGHT - 3}" text-anchor="end">${escapeXml(speedup.label)}</text>`,
      );
      parts.push(
        `<rect x="${Math.min(centre, end)}" y="${y}" width="${Math.max(1, Math.abs(end - centre))}" ` +
          `height="${BAR_HEIGHT}" fill="${speedup.value >= 1 ? "#2b7a3d" : "#b03a2e"}"/>`,
      );
      parts.push(
        `<text x="${Math.max(centre, end) + 4}" y="${y + BAR_HEIGHT - 3}">${formatRatio(speedup.value)}</text>`,
      );
      if (speedup.published !== undefined) {
        const published = x(speedup.published);
        parts.push(
          `<rect x="${Math.min(centre, published)}" y="${y + BAR_HEIGHT + 1}" ` +
            `width="${Math.max(1, Math.abs(published - centre))}" height="4" fill="#1f5fa8"/>`,
        );
      }
      y += rowHeight + ROW_GAP;
    }
    y += GROUP_GAP;
  }
  const axis: string[] = [];
  for (let octave = -OCTAVES; octave <= OCTAVES; octave++) {
    const at = centre + (octave / OCTAVES) * (plotWidth / 2);
    axis.push(`<line x1="${at}" y1="20" x2="${at}" y2="${y - GROUP_GAP}" stroke="${octave === 0 ? "#333" : "#ddd"}"/>`);
    axis.push(`<text x="${at}" y="16" text-anchor="middle" fill="#666">${formatRatio(2 ** octave)}</text>`);
  }
  const legend =
    `<text x="8" y="${y - 8}" fill="#666">green/red: ours (baseline time ÷ variant time, log scale); ` +
    "thin blue: published ratio (workerd draining-read PR, New/Existing)</text>";
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${y + 10}" ` +
      'font-family="sans-serif" font-size="11">',
    `<rect width="100%" height="100%" fill="white"/>`,
    ...axis,
    ...parts,
    legend,
    "</svg>",
    "",
  ].join("\n");
}
