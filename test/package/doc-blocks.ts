/**
 * The fenced code blocks of the README and of `docs/*.md`: all of them (each run or checked by a test, see
 * `test/docs/doc-blocks.test.ts`), and the library's examples (the README's "Library" section and the "Install and
 * use" section of `docs/library.md`), which the consumer test runs against the packed package.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** One fenced block of a Markdown file. */
export interface DocBlock {
  /** The file, relative to the project root (`README.md`, `docs/http-api.md`). */
  file: string;
  /** The `## ` heading of the section it is in (empty before the first). */
  section: string;
  /** The fence's language (`ts`, `toml`, `sh`, `text`; empty when the fence names none). */
  lang: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The block's text. */
  code: string;
}

/** One of the library's examples, which the consumer test writes to a file of its own. */
export interface LibraryExample extends DocBlock {
  /** A file name stem for it: `<file's stem>-<line>`, such as `library-45`. */
  id: string;
  /** Whether it is the worker module (it imports the `/worker` subpath). */
  worker: boolean;
}

/** The Markdown files whose blocks are checked: the README and every `docs/*.md`. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
  return ["README.md", ...docs.sort().map((name) => `docs/${name}`)];
}

/** Every fenced block of `text` (the contents of `file`), in order. */
export function docBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split("\n");
  const blocks: DocBlock[] = [];
  let section = "";
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith("## ")) section = line.slice(3);
    const open = /^```(\w*)$/.exec(line);
    if (!open) continue;
    const end = lines.indexOf("```", index + 1);
    if (end < 0) throw new Error(`${file}:${index + 1}: a code block without its closing fence`);
    blocks.push({ file, section, lang: open[1]!, line: index + 1, code: lines.slice(index + 1, end).join("\n") });
    index = end;
  }
  return blocks;
}

/** The sections whose blocks are the library's examples, by file. */
const LIBRARY_SECTIONS: { file: string; section: string }[] = [
  { file: "README.md", section: "Library" },
  { file: "docs/library.md", section: "Install and use" },
];

/** The library's examples: every block of the sections in {@link LIBRARY_SECTIONS}. */
export function libraryExamples(root: string): LibraryExample[] {
  return LIBRARY_SECTIONS.flatMap(({ file, section }) => {
    const text = readFileSync(join(root, file), "utf8");
    if (!text.split("\n").includes(`## ${section}`)) throw new Error(`${file} has no "## ${section}" section`);
    const stem = file
      .replace(/^docs\//, "")
      .replace(/\.md$/, "")
      .toLowerCase();
    return docBlocks(file, text)
      .filter((block) => block.section === section)
      .map((block) => ({ ...block, id: `${stem}-${block.line}`, worker: block.code.includes('/worker"') }));
  });
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
