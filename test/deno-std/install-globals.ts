/**
 * Deno `--preload` module of the `@std/streams` suite runner (`run.ts`): imports drainpipe from the module named by
 * `DRAINPIPE_MODULE` (a file URL) and installs its stream classes as the globals, before any test module loads, so
 * the suite's `new ReadableStream(…)`, `ReadableStream.from(…)` and `class … extends TransformStream` are drainpipe's
 * while the host's own `Response`, `TextDecoderStream` and `Deno.open(…).readable` stay the platform's.
 * @module
 */

import process from "node:process";
import { STREAM_CLASS_NAMES } from "../wpt/stream-classes.ts";
import { defineGlobal } from "../wpt/worker-like-global.ts";

const moduleUrl = process.env.DRAINPIPE_MODULE;
if (moduleUrl === undefined) {
  throw new Error("Cannot install drainpipe's classes: DRAINPIPE_MODULE (the module's file URL) is not set");
}
const drainpipe = (await import(moduleUrl)) as Record<string, unknown>;
for (const name of STREAM_CLASS_NAMES) {
  if (typeof drainpipe[name] !== "function") {
    throw new Error(`Cannot install drainpipe's classes: ${moduleUrl} does not export ${name}`);
  }
  defineGlobal(name, drainpipe[name]);
}
