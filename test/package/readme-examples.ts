/**
 * The README's fenced code blocks: all of them (each run or checked by a test, see
 * `test/cli/readme-blocks.test.ts`), and those of its "Install and use" section, which the consumer test runs
 * against the packed package.
 *
 * @module
 */

/** One fenced block of the README. */
export interface ReadmeBlock {
  /** The `## ` heading of the section it is in. */
  section: string;
  /** The fence's language (`ts`, `toml`, `sh`, `text`). */
  lang: string;
  /** 1-based README line of the opening fence. */
  line: number;
  /** The block's text. */
  code: string;
}

/** One fenced block of the "Install and use" section. */
export interface ReadmeExample extends ReadmeBlock {
  /** A file name stem for it: `example-<line>`. */
  id: string;
  /** Whether it is the worker module (it imports the `/worker` subpath). */
  worker: boolean;
}

/** Every fenced block of the README, in order. */
export function readmeBlocks(readme: string): ReadmeBlock[] {
  const lines = readme.split("\n");
  const blocks: ReadmeBlock[] = [];
  let section = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("## ")) section = line.slice(3);
    const open = /^```(\w+)$/.exec(line);
    if (!open) continue;
    const end = lines.indexOf("```", index + 1);
    blocks.push({ section, lang: open[1]!, line: index + 1, code: lines.slice(index + 1, end).join("\n") });
    index = end;
  }
  return blocks;
}

/** Every fenced block between `## Install and use` and the next `## ` heading. */
export function readmeExamples(readme: string): ReadmeExample[] {
  if (!readme.split("\n").includes("## Install and use")) {
    throw new Error('README.md has no "## Install and use" section');
  }
  return readmeBlocks(readme)
    .filter((block) => block.section === "Install and use")
    .map((block) => ({ ...block, id: `example-${block.line}`, worker: block.code.includes('/worker"') }));
}

/** The `console.log` outputs a block promises: the comment after each `console.log(…); // `, one per line. */
export function expectedOutput(code: string): string {
  return code
    .split("\n")
    .flatMap((line) => {
      const match = /console\.log\(.*\); \/\/ (.*)$/.exec(line);
      return match ? [match[1]!] : [];
    })
    .join("\n");
}
