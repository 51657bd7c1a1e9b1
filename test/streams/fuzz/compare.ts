/**
 * Runs a program on drainpipe and on the runtime's own streams and compares what they recorded.
 *
 * Both runs wait until nothing is left to do after each operation (at rest), and compare what happened meanwhile
 * as a multiset, plus, over the whole run, the order of the calls each underlying source, sink and transformer
 * received (the standard fixes that order; the chunks a sink receives are compared in order that way). The order
 * of events of different streams within one operation is not compared: the standard fixes it too, to the promise
 * job, but Node 24 takes a different number of jobs in many places (a sink write's promise, a BYOB read's
 * fulfilment, a pipe's reads, whose pace the standard leaves to the implementation anyway), and comparing it would
 * report Node's departures rather than drainpipe's.
 * @module
 */

import * as reference from "web-streams-polyfill";
import * as drainpipe from "../../../src/streams/index.ts";
import { findDeviation } from "./deviations.ts";
import { runProgram, type StreamsImpl, type Trace } from "./interpreter.ts";
import { type Program, usesPipe } from "./program.ts";

const drainpipeStreams: StreamsImpl = drainpipe as unknown as StreamsImpl;
const nativeStreams: StreamsImpl = globalThis as unknown as StreamsImpl;
const referenceStreams: StreamsImpl = reference as unknown as StreamsImpl;

/** The outcome of one program. */
export type Verdict =
  | { kind: "same" }
  | { kind: "deviation"; deviation: string }
  | { kind: "referee"; signature: string }
  | { kind: "different"; native: string[]; drainpipe: string[]; uncaught: unknown[] };

/** The callback object a log line comes from (`source`, `sink`, `t0`, ...), if it is a callback call. */
function callbackChannel(line: string): string | undefined {
  const match = /^(source|sink|t\d+)\.[a-z]+#?\d* ?/.exec(line);
  return match === null ? undefined : (match[1] as string);
}

/**
 * The log as compared: each operation's events sorted, then each callback object's calls in order. With a pipe,
 * `paced`: the source's `pull` calls are left out, as what they see (how often, the desired size) depends on when
 * the pipe reads; what they enqueue still shows in what the sink and the readers get.
 */
function normalise(log: string[], paced: boolean): string[] {
  const out: string[] = [];
  const channels = new Map<string, string[]>();
  let segment: string[] = [];
  for (const line of log) {
    if (paced && line.startsWith("source.pull#")) continue;
    const channel = callbackChannel(line);
    if (channel !== undefined) channels.set(channel, [...(channels.get(channel) ?? []), line]);
    if (line.startsWith("--- ")) {
      out.push(...segment.sort(), line);
      segment = [];
    } else {
      segment.push(line);
    }
  }
  out.push(...segment.sort());
  for (const [channel, lines] of [...channels].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`=== calls of ${channel}`, ...lines);
  }
  return out;
}

/** Errors the native run surfaced: uncaught ones, and those the log recorded as thrown or rejected. */
function nativeErrors(trace: Trace): unknown[] {
  return [...trace.uncaught, ...trace.errors];
}

/** Runs `program` on both implementations and compares. */
export async function compare(program: Program): Promise<Verdict> {
  const native = await runProgram(nativeStreams, program, true);
  const deviation = findDeviation(nativeErrors(native));
  if (deviation !== undefined) return { kind: "deviation", deviation: deviation.name };
  const ours = await runProgram(drainpipeStreams, program, true);
  const paced = usesPipe(program);
  const expected = normalise(native.log, paced);
  const actual = normalise(ours.log, paced);
  if (sameLogs(expected, actual) && ours.uncaught.length === 0 && native.uncaught.length === 0) return { kind: "same" };
  if (ours.uncaught.length === 0) {
    const refereed = await runProgram(referenceStreams, program, true);
    if (refereed.uncaught.length === 0 && sameLogs(normalise(refereed.log, paced), actual)) {
      return { kind: "referee", signature: firstDifference(expected, actual) };
    }
  }
  return { kind: "different", native: expected, drainpipe: actual, uncaught: ours.uncaught };
}

function sameLogs(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** The first lines where two logs part, with numbers blanked: groups differences of one kind. */
export function firstDifference(native: string[], ours: string[]): string {
  let i = 0;
  while (i < native.length && native[i] === ours[i]) i++;
  const blank = (line: string | undefined): string => (line ?? "(end)").replace(/\d+/g, "N");
  return `native ${blank(native[i])} / drainpipe ${blank(ours[i])}`;
}
