import { describe, expect, test } from "vitest";
import { asBody, bucketKeys, fileExists, primesText, untilGone, useTusWorker } from "./tus-support.ts";

// Expiration: with UPLOAD_TTL of a few seconds, abandoned uploads (of a file, and partial ones) are removed by the
// coordinator's alarm, with everything they stored.
const TTL_SECONDS = 3;
const worker = useTusWorker("drainpipe-tus-expiry-", { UPLOAD_TTL: String(TTL_SECONDS) });

/** Creates an upload with `headers` and sends it `bytes`; resolves with its URL and `Upload-Expires`. */
async function abandoned(headers: Record<string, string>, bytes: Uint8Array, length: number) {
  const created = await worker.tus("/tus", {
    method: "POST",
    headers: { "Upload-Length": String(length), ...headers },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  const url = new URL(created.headers.get("Location")!, worker.url).href;
  const patched = await worker.tus(url, {
    method: "PATCH",
    headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0" },
    body: asBody(bytes),
  });
  expect(patched.status, await patched.text()).toBe(204);
  return { url, expires: Date.parse(created.headers.get("Upload-Expires") ?? "") };
}

describe("abandoned uploads expire", () => {
  test("an upload of a file and a partial upload are removed after UPLOAD_TTL", { timeout: 60_000 }, async () => {
    const bytes = await primesText(5_000);
    const before = Date.now();
    const named = await abandoned(
      { "Upload-Metadata": `name ${btoa("expiring")}` },
      bytes.subarray(0, 10_001),
      bytes.length,
    );
    const partial = await abandoned({ "Upload-Concat": "partial" }, bytes.subarray(0, 9_999), 20_000);
    for (const { expires } of [named, partial]) {
      // Upload-Expires has whole seconds: it may lie up to a second before creation + UPLOAD_TTL.
      expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + (TTL_SECONDS - 1) * 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000 + 1000);
    }
    await untilGone(worker, [named.url, partial.url], 45_000);
    const late = await worker.tus(named.url, {
      method: "PATCH",
      headers: { "Content-Type": "application/offset+octet-stream", "Upload-Offset": "10001" },
      body: asBody(bytes.subarray(10_001)),
    });
    expect([404, 410]).toContain(late.status);
    expect(await fileExists(worker, "expiring")).toBe(false);
    await worker.stop();
    expect(await bucketKeys(worker.stateDir)).toEqual([]);
  });
});
