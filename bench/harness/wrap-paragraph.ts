/**
 * Markdown prose cut into lines of at most a given width, so that generated pages keep the docs' line limit.
 *
 * @module
 */

/**
 * A continuation line must not begin with what Markdown would read as a list item, a heading, a quote or a table
 * row.
 */
const BLOCK_START = /^([-+*]\s|#|>|\||\d+[.)](\s|$))/;

/**
 * `text` (one paragraph or list item, on one line) as lines of at most `width` characters, cut at spaces: the first
 * line starts with `first`, the others with `rest` (a list item's indentation). A word longer than the width stays
 * whole on a line of its own.
 *
 * @example
 * ```ts
 * wrapParagraph("1. one two three", 10, "", "   "); // ["1. one two", "   three"]
 * ```
 */
export function wrapParagraph(text: string, width: number, first = "", rest = ""): string[] {
  const words = text.split(/\s+/).filter((word) => word !== "");
  const lines: string[] = [];
  let line: string[] = [];
  const length = (candidate: readonly string[], prefix: string) => [...`${prefix}${candidate.join(" ")}`].length;
  for (const word of words) {
    const prefix = lines.length === 0 ? first : rest;
    if (line.length > 0 && length([...line, word], prefix) > width) {
      // Carry the line's last word along when the new line would otherwise start a Markdown block.
      const carried = BLOCK_START.test(`${word} `) && line.length > 1 ? [line.pop()!] : [];
      lines.push(`${prefix}${line.join(" ")}`);
      line = carried;
    }
    line.push(word);
  }
  lines.push(`${lines.length === 0 ? first : rest}${line.join(" ")}`);
  return lines;
}
