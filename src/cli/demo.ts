/**
 * `npm run demo`: the main job end to end on the embedded default. Generates the first 1,000,000 primes,
 * starts the worker in local workerd (miniflare, R2 persisted under `.wrangler/state`), POSTs the file over
 * real local HTTP, prints the manifest and the throughput, and checks the stored content byte for byte.
 *
 * @module
 */
import { unstable_dev } from "wrangler";
import { primeTextStream } from "../numbers/prime-text-stream.ts";
import type { Manifest } from "../split/manifest.ts";

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
process.env.WRANGLER_SEND_METRICS ??= "false";

const COUNT = Number(process.env.DEMO_PRIMES ?? 1_000_000);
const NAME = `primes-${COUNT}`;
const MB = 1_000_000;

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function seconds(start: number): number {
  return (performance.now() - start) / 1000;
}

const generationStart = performance.now();
const body = await collect(primeTextStream(COUNT));
const generation = seconds(generationStart);
console.log(`generated ${COUNT.toLocaleString("en")} primes: ${(body.length / MB).toFixed(1)} MB in ${generation.toFixed(2)} s`);

const token = crypto.randomUUID();
const auth = { Authorization: `Bearer ${token}` };
const worker = await unstable_dev("src/worker/index.ts", {
  config: "wrangler.toml",
  vars: { API_TOKEN: token },
  persistTo: ".wrangler/state",
  logLevel: "warn",
  experimental: { disableExperimentalWarning: true },
});
try {
  const url = `http://${worker.address}:${worker.port}/files/${NAME}`;
  console.log(`worker listening on http://${worker.address}:${worker.port} (local workerd, R2 in .wrangler/state)`);

  const uploadStart = performance.now();
  const response = await fetch(url, { method: "POST", body, headers: auth });
  const upload = seconds(uploadStart);
  if (response.status !== 201) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  const manifest = (await response.json()) as Manifest;

  const summary = {
    ...manifest,
    parts: manifest.parts.length > 4 ? [...manifest.parts.slice(0, 2), "…", ...manifest.parts.slice(-2)] : manifest.parts,
  };
  console.log(JSON.stringify(summary, null, 2));
  console.log(
    `upload: ${(body.length / MB).toFixed(1)} MB, ${manifest.totals.numbers.toLocaleString("en")} numbers, ` +
      `${manifest.totals.parts} parts in ${upload.toFixed(2)} s = ${(body.length / MB / upload).toFixed(1)} MB/s, ` +
      `${Math.round(manifest.totals.numbers / upload).toLocaleString("en")} numbers/s`,
  );

  const verifyStart = performance.now();
  const stored = await collect((await fetch(`${url}/content`, { headers: auth })).body!);
  const identical = stored.length === body.length && stored.every((byte, i) => byte === body[i]);
  console.log(`verify: content ${identical ? "is byte-identical" : "DIFFERS"} (${(stored.length / MB).toFixed(1)} MB read back in ${seconds(verifyStart).toFixed(2)} s)`);
  if (!identical) process.exitCode = 1;
} finally {
  await worker.stop();
}
