/**
 * The `// META: key=value` header of a web-platform-tests `.any.js` file.
 *
 * `globals` lists the global scopes the file is meant for (`window`, `worker`, `shadowrealm`, ...); when the file
 * has no `global` directive it is WPT's default, `window` and `dedicatedworker`. `scripts` lists the `script`
 * includes in order, exactly as written. `longTimeout` is true for `timeout=long`.
 */
export interface MetaDirectives {
  readonly globals: readonly string[];
  readonly scripts: readonly string[];
  readonly longTimeout: boolean;
  readonly title: string | undefined;
}

const DEFAULT_GLOBALS = ["window", "dedicatedworker"] as const;
const META_LINE = /^\/\/\s*META:\s*([a-z-]+)=(.*)$/;

/**
 * Reads the META directives at the top of a WPT test file. Parsing stops at the first line that is neither a META
 * comment nor blank, as WPT's own manifest tool does.
 *
 * @example
 * ```ts
 * parseMetaDirectives("// META: global=window,worker\n// META: script=../resources/test-utils.js\ntest(() => {});");
 * // { globals: ["window", "worker"], scripts: ["../resources/test-utils.js"], longTimeout: false, title: undefined }
 * ```
 */
export function parseMetaDirectives(source: string): MetaDirectives {
  let globals: string[] | undefined;
  const scripts: string[] = [];
  let longTimeout = false;
  let title: string | undefined;
  for (const rawLine of source.split("\n")) {
    const line = rawLine.trim();
    if (line === "") {
      continue;
    }
    const match = META_LINE.exec(line);
    if (match === null) {
      break;
    }
    const key = match[1];
    const value = (match[2] ?? "").trim();
    if (key === "global") {
      globals = value
        .split(",")
        .map((scope) => scope.trim())
        .filter((scope) => scope !== "");
    } else if (key === "script") {
      scripts.push(value);
    } else if (key === "timeout") {
      longTimeout = value === "long";
    } else if (key === "title") {
      title = value;
    }
  }
  return { globals: globals ?? [...DEFAULT_GLOBALS], scripts, longTimeout, title };
}

/**
 * Global scopes this runner can stand in for: it runs every file in a dedicated worker thread whose global looks like
 * a worker's, which is what window, worker, dedicated-worker and ShadowRealm tests of streams rely on.
 * Shared and service workers need APIs (ports, clients, fetch events) that the runner does not emulate.
 */
const RUNNABLE_SCOPES = ["any", "window", "worker", "dedicatedworker", "shadowrealm", "jsshell"] as const;

/**
 * Tells whether a file meant for `globals` can run in this runner's worker-like global. A scope such as
 * `shadowrealm-in-window` or `dedicatedworker-module` counts as its base scope; negated scopes (`!window`) are ignored.
 *
 * @example
 * ```ts
 * isRunnableInWorkerLikeGlobal(["window", "worker", "shadowrealm"]); // true
 * isRunnableInWorkerLikeGlobal(["serviceworker"]); // false
 * ```
 */
export function isRunnableInWorkerLikeGlobal(globals: readonly string[]): boolean {
  return globals.some((scope) =>
    RUNNABLE_SCOPES.some((runnable) => scope === runnable || scope.startsWith(`${runnable}-`)),
  );
}
