/**
 * V8 CPU profiles of benchmark work, taken through the Chrome DevTools protocol's `Profiler` domain: in this
 * process (`node:inspector/promises`), or in a worker's isolate through the inspector wrangler starts for it. Both
 * give the same `.cpuprofile` JSON that Chrome DevTools and VS Code open, and {@linkcode selfTimeTable} summarizes
 * it as the share of samples each function was running in itself.
 *
 * @module
 */
import { Session } from "node:inspector/promises";
import { createRequire } from "node:module";

/** The parts of a `.cpuprofile` the summary reads. */
export interface CpuProfile {
  /** Every node of the call tree. */
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  /** The node running at each sample. */
  samples: number[];
}

/** One row of {@linkcode selfTimeTable}. */
export interface SelfTimeRow {
  /** Share of all samples, in percent. */
  percent: number;
  /** The function's name (`(anonymous)` when it has none). */
  functionName: string;
  /** Where it is: the file's last two path segments and the 1-based line. */
  location: string;
}

/** Sampling interval of the profiles, in µs (V8's default is 1,000). */
const SAMPLING_INTERVAL_US = 100;

/**
 * The `top` functions by self time: samples taken while the function itself (not a callee) was running, summed
 * over every place it was called from.
 *
 * @example
 * ```ts
 * const profile = await profileThisProcess(async () => { for (let i = 0; i < 1e7; i++) Math.sqrt(i); });
 * for (const row of selfTimeTable(profile, 5)) console.log(row.percent.toFixed(1), row.functionName);
 * ```
 */
export function selfTimeTable(profile: CpuProfile, top: number): SelfTimeRow[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const samplesOf = new Map<string, SelfTimeRow>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) continue;
    const location = `${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`;
    const key = `${frame.functionName}\u0000${location}`;
    const row = samplesOf.get(key) ?? { percent: 0, functionName: frame.functionName || "(anonymous)", location };
    row.percent += 1;
    samplesOf.set(key, row);
  }
  const total = profile.samples.length;
  return [...samplesOf.values()]
    .map((row) => ({ ...row, percent: (100 * row.percent) / total }))
    .sort((a, b) => b.percent - a.percent)
    .slice(0, top);
}

/** Something that sends DevTools protocol commands and answers with their results. */
type Send = (method: string, params?: object) => Promise<unknown>;

/** The parts of a `ws` client socket used here. */
interface InspectorSocket {
  once(event: "open", listener: () => void): void;
  once(event: "error", listener: (error: Error) => void): void;
  on(event: "message", listener: (data: unknown) => void): void;
  send(data: string): void;
  close(): void;
}

/** Profiles `work` with the commands `send` reaches. */
async function profileWith(send: Send, work: () => Promise<unknown>): Promise<CpuProfile> {
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
  await send("Profiler.start");
  let stopped: { profile: CpuProfile };
  try {
    await work();
  } finally {
    stopped = (await send("Profiler.stop")) as { profile: CpuProfile };
    await send("Profiler.disable");
  }
  return stopped.profile;
}

/** A CPU profile of this process while `work` runs. */
export async function profileThisProcess(work: () => Promise<unknown>): Promise<CpuProfile> {
  const session = new Session();
  session.connect();
  try {
    return await profileWith((method, params) => session.post(method, params), work);
  } finally {
    session.disconnect();
  }
}

/**
 * A CPU profile of the isolate behind the inspector at `http://127.0.0.1:<port>` (the one wrangler starts for a
 * worker) while `work` runs: for instance the requests that make the worker do what is measured.
 *
 * @throws {Error} when the inspector lists no target or the connection fails.
 */
export async function profileOverInspector(port: number, work: () => Promise<unknown>): Promise<CpuProfile> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl?: string }[];
  const address = targets.find((target) => target.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
  if (address === undefined)
    throw new Error(`Cannot profile the worker: the inspector on port ${port} lists no target`);
  // wrangler's inspector proxy checks the Origin header, which the WebSocket of the platform cannot set; `ws` (a
  // dependency of wrangler) can.
  const WebSocket = createRequire(import.meta.url)("ws") as new (
    address: string,
    options: { headers: Record<string, string> },
  ) => InspectorSocket;
  const socket = new WebSocket(address, { headers: { Origin: "http://127.0.0.1" } });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", (error) => reject(new Error(`Cannot profile the worker: ${error.message}`, { cause: error })));
  });
  const pending = new Map<number, (result: unknown) => void>();
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  let lastId = 0;
  const send: Send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++lastId;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  try {
    return await profileWith(send, work);
  } finally {
    socket.close();
  }
}
