/**
 * What `safe.test.ts` checks inside a browser, the same code in a page, a dedicated worker and a service worker
 * (each bundled by esbuild with drainpipe's streams, plainly or minified with its names mangled): drainpipe's
 * streams work, and they cross the browser's own APIs (`Response`, a `fetch` body, `CompressionStream`,
 * `TextDecoderStream`) either directly or through the library's documented adapters (`toNativeStream`,
 * `fromNativeStream`, `collectBytes`). Every crossing is tried directly first; what happened is recorded, never
 * assumed.
 *
 * @module
 */
import {
  collectBytes,
  ReadableStream as DrainpipeReadableStream,
  TransformStream as DrainpipeTransformStream,
  WritableStream as DrainpipeWritableStream,
  fromNativeStream,
  toNativeStream,
} from "../../../src/streams/index.ts";

/** How one way across went: `ok`, the error it threw, or the wrong output it gave. */
export type Outcome = string;

/** The report of one scope (page, dedicated worker, service worker). */
export interface SafeReport {
  /** The scope's `self.constructor.name`-like label: `Window`, `DedicatedWorkerGlobalScope`, ... */
  scope: string;
  /** Basic checks of drainpipe's streams: name → `ok` or why not. */
  checks: Record<string, Outcome>;
  /** Each crossing: what the direct way did, and what the adapter's way did. */
  crossings: Record<string, { direct: Outcome; adapter: Outcome }>;
  /** `ReadableStream.name` of drainpipe's class here (a bundler that renames classes changes it). */
  className: string;
  /** Whether the scope's own `ReadableStream` has `from` (drainpipe's always has). */
  nativeHasFrom: boolean;
  /** What `eval("1")` and `new Function("return 1")` did here: the errors the policy made them throw. */
  probes: Outcome[];
  /** The policy violations reported in this scope while it ran (the probes' own included), by blocked URI. */
  violations: string[];
}

const TEXT = "drainpipe in a browser: ünïcödé, split mid-character ✓\n".repeat(64);
const BYTES = new TextEncoder().encode(TEXT);

/** `bytes` as a drainpipe stream of 7-byte chunks (multi-byte characters end up split across chunks). */
function drainpipeBytes(bytes: Uint8Array = BYTES): DrainpipeReadableStream<Uint8Array> {
  let offset = 0;
  return new DrainpipeReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.byteLength) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + 7));
      offset += 7;
    },
  });
}

/** {@linkcode drainpipeBytes} through the adapter, typed as the DOM's transforms take it. */
function nativeBytes(): ReadableStream<BufferSource> {
  return toNativeStream(drainpipeBytes()) as ReadableStream<BufferSource>;
}

async function hostBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Runs `way`, whose result must equal `expected` (bytes or text): `ok`, the error, or the wrong output. */
async function attempt(way: () => Promise<Uint8Array | string>, expected: Uint8Array | string): Promise<Outcome> {
  try {
    const got = await way();
    if (typeof got === "string" || typeof expected === "string") {
      if (got === expected) return "ok";
      const text = typeof got === "string" ? got : new TextDecoder().decode(got);
      return `wrong output (${text.length} characters: ${JSON.stringify(text.slice(0, 40))})`;
    }
    if (sameBytes(got, expected)) return "ok";
    return `wrong output (${got.byteLength} bytes: ${JSON.stringify(new TextDecoder().decode(got.slice(0, 40)))})`;
  } catch (error) {
    return describe(error);
  }
}

type Check = () => Promise<void>;

/** A crossing: its direct way, its adapter's way, and what both must give. */
interface Crossing {
  direct(): Promise<Uint8Array | string>;
  adapter(): Promise<Uint8Array | string>;
  expected: Uint8Array | string;
}

function expect(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const CHECKS: Record<string, Check> = {
  async "pipes 1,000 chunks through a TransformStream into a WritableStream"() {
    let next = 0;
    let sum = 0;
    await new DrainpipeReadableStream<number>({
      pull(controller) {
        controller.enqueue(next++);
        if (next === 1000) controller.close();
      },
    })
      .pipeThrough(new DrainpipeTransformStream<number, number>({ transform: (chunk, c) => c.enqueue(chunk * 2) }))
      .pipeTo(
        new DrainpipeWritableStream<number>({
          write(chunk) {
            sum += chunk;
          },
        }),
      );
    expect(sum === 999_000, `sum ${sum}, expected 999000`);
  },
  async "reads a byte stream with BYOB reads"() {
    const stream = new DrainpipeReadableStream({
      type: "bytes",
      start(controller) {
        controller.enqueue(BYTES.slice());
        controller.close();
      },
    });
    const reader = stream.getReader({ mode: "byob" });
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(100));
      if (done) break;
      total += value.byteLength;
    }
    expect(total === BYTES.byteLength, `read ${total} bytes, expected ${BYTES.byteLength}`);
  },
  async "tees into two equal branches"() {
    const [a, b] = drainpipeBytes().tee();
    const [left, right] = await Promise.all([collectBytes(a, 1 << 20), collectBytes(b, 1 << 20)]);
    expect(sameBytes(left, BYTES) && sameBytes(right, BYTES), "the branches differ from the source");
  },
  async "ReadableStream.from an async generator"() {
    async function* numbers() {
      yield* [1, 2, 3];
    }
    let sum = 0;
    for await (const value of DrainpipeReadableStream.from(numbers())) sum += value;
    expect(sum === 6, `sum ${sum}, expected 6`);
  },
  async "its errors are this realm's TypeError, its tag the interface's name"() {
    const stream = new DrainpipeReadableStream();
    stream.getReader();
    let caught: unknown;
    try {
      stream.getReader();
    } catch (error) {
      caught = error;
    }
    expect(caught instanceof TypeError, `a second getReader threw ${describe(caught)}, not a TypeError`);
    const tag = Object.prototype.toString.call(stream);
    expect(tag === "[object ReadableStream]", `toString gives ${tag}`);
  },
};

/** The crossings: each a direct way and an adapter's way, both checked against the same expected output. */
function crossings(origin: string): Record<string, Crossing> {
  return {
    "new Response(drainpipeReadable)": {
      direct: async () => new Uint8Array(await new Response(drainpipeBytes() as unknown as BodyInit).arrayBuffer()),
      adapter: async () => new Uint8Array(await new Response(toNativeStream(drainpipeBytes())).arrayBuffer()),
      expected: BYTES,
    },
    "fetch POST body": {
      direct: async () => {
        const init = { method: "POST", body: drainpipeBytes() as unknown as BodyInit, duplex: "half" };
        return new Uint8Array(await (await fetch(`${origin}/echo`, init as RequestInit)).arrayBuffer());
      },
      adapter: async () => {
        const body = await collectBytes(drainpipeBytes(), 1 << 20);
        return new Uint8Array(await (await fetch(`${origin}/echo`, { method: "POST", body })).arrayBuffer());
      },
      expected: BYTES,
    },
    "fetch POST body, toNativeStream (a streaming upload)": {
      direct: async () => {
        const init = { method: "POST", body: toNativeStream(drainpipeBytes()), duplex: "half" };
        return new Uint8Array(await (await fetch(`${origin}/echo`, init as RequestInit)).arrayBuffer());
      },
      adapter: async () => {
        const body = await new Response(toNativeStream(drainpipeBytes())).blob();
        return new Uint8Array(await (await fetch(`${origin}/echo`, { method: "POST", body })).arrayBuffer());
      },
      expected: BYTES,
    },
    'drainpipeReadable.pipeThrough(new CompressionStream("gzip"))': {
      direct: async () => {
        const gzipped = drainpipeBytes().pipeThrough(new CompressionStream("gzip") as never) as ReadableStream;
        return hostBytes(gzipped.pipeThrough(new DecompressionStream("gzip")));
      },
      adapter: async () => {
        const gzipped = nativeBytes().pipeThrough(new CompressionStream("gzip"));
        return hostBytes(gzipped.pipeThrough(new DecompressionStream("gzip")));
      },
      expected: BYTES,
    },
    "drainpipeReadable.pipeThrough(new TextDecoderStream())": {
      direct: async () => {
        const decoded = drainpipeBytes().pipeThrough(new TextDecoderStream() as never) as ReadableStream<string>;
        let text = "";
        for await (const part of decoded as unknown as AsyncIterable<string>) text += part;
        return text;
      },
      adapter: async () => {
        const decoded = nativeBytes().pipeThrough(new TextDecoderStream());
        return new Response(decoded.pipeThrough(new TextEncoderStream())).text();
      },
      expected: TEXT,
    },
    "response.body.pipeThrough(drainpipeTransform)": {
      direct: async () => {
        const body = new Response(BYTES).body!;
        return collectBytes(body.pipeThrough(new DrainpipeTransformStream() as never) as never, 1 << 20);
      },
      adapter: async () => {
        const body = new Response(BYTES).body!;
        return collectBytes(fromNativeStream(body).pipeThrough(new DrainpipeTransformStream()), 1 << 20);
      },
      expected: BYTES,
    },
  };
}

/**
 * Runs every check and crossing in this scope and resolves with what happened (it never rejects: a failure is a
 * line of the report).
 */
export async function runSafeChecks(scope: string): Promise<SafeReport> {
  const violations: string[] = [];
  self.addEventListener("securitypolicyviolation", (event) => {
    const violation = event as SecurityPolicyViolationEvent;
    violations.push(`${violation.effectiveDirective} blocked ${violation.blockedURI}`);
  });
  const probes: Outcome[] = [];
  // biome-ignore lint/security/noGlobalEval: the probe checks that the policy refuses string evaluation here
  const probeEval = (): unknown => globalThis.eval("1");
  for (const probe of [probeEval, () => new Function("return 1")()]) {
    try {
      probes.push(`ran, gave ${probe()}`);
    } catch (error) {
      probes.push(describe(error));
    }
  }
  const checks: Record<string, Outcome> = {};
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      await check();
      checks[name] = "ok";
    } catch (error) {
      checks[name] = describe(error);
    }
  }
  const results: SafeReport["crossings"] = {};
  for (const [name, crossing] of Object.entries(crossings(self.location.origin))) {
    results[name] = {
      direct: await attempt(crossing.direct, crossing.expected),
      adapter: await attempt(crossing.adapter, crossing.expected),
    };
  }
  const native = (globalThis as { ReadableStream?: { from?: unknown } }).ReadableStream;
  return {
    scope,
    checks,
    crossings: results,
    className: DrainpipeReadableStream.name,
    nativeHasFrom: typeof native?.from === "function",
    probes,
    violations,
  };
}
