/**
 * The code blocks of the README's "Install and use" section, which the consumer test runs against the packed
 * package.
 *
 * @module
 */

/** One fenced block of the section. */
export interface ReadmeExample {
  /** A file name stem for it: `example-<line>`. */
  id: string;
  /** The fence's language (`ts`, `toml`, `sh`). */
  lang: string;
  /** 1-based README line of the opening fence. */
  line: number;
  /** The block's text. */
  code: string;
  /** Whether it is the worker module (it imports the `/worker` subpath). */
  worker: boolean;
}

/** Every fenced block between `## Install and use` and the next `## ` heading. */
export function readmeExamples(readme: string): ReadmeExample[] {
  const lines = readme.split("\n");
  const start = lines.indexOf("## Install and use");
  if (start < 0) throw new Error('README.md has no "## Install and use" section');
  const examples: ReadmeExample[] = [];
  for (let index = start + 1; index < lines.length && !lines[index]!.startsWith("## "); index++) {
    const open = /^```(\w+)$/.exec(lines[index]!);
    if (!open) continue;
    const end = lines.indexOf("```", index + 1);
    const code = lines.slice(index + 1, end).join("\n");
    examples.push({
      id: `example-${index + 1}`,
      lang: open[1]!,
      line: index + 1,
      code,
      worker: code.includes('/worker"'),
    });
    index = end;
  }
  return examples;
}
