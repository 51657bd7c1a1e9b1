import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import { FileCoordinator } from "../../src/coordinator/file-coordinator.ts";
import { encodeNumbers } from "../../src/numbers/number-encoder.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import { callWorker } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";
import { sampleNumbers } from "../support/split-contract.ts";

const headers = { Authorization: "Bearer test-token" };

/** The real miniflare R2 binding, with puts of parts (or of the manifest) failing from the `failFrom`-th on. */
function failingBucket(failFrom: number, what: "part" | "manifest"): R2Bucket {
  let puts = 0;
  return new Proxy(env.BUCKET, {
    get(target, property) {
      if (property === "put") {
        return (key: string, value: ArrayBufferView, options?: R2PutOptions) => {
          const isManifest = key.endsWith("/manifest.json");
          if ((what === "manifest") === isManifest && ++puts >= failFrom) {
            return Promise.reject(new Error(`injected R2 failure on ${key}`));
          }
          return target.put(key, value, options);
        };
      }
      const member = Reflect.get(target, property) as unknown;
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}

/** The real miniflare R2 binding, with every multipart upload's `complete` failing (its parts went up). */
function failingCompleteBucket(): R2Bucket {
  return new Proxy(env.BUCKET, {
    get(target, property) {
      if (property === "createMultipartUpload") {
        return async (key: string) => {
          const upload = await target.createMultipartUpload(key);
          return new Proxy(upload, {
            get(inner, member) {
              if (member === "complete")
                return () => Promise.reject(new Error(`injected R2 failure completing ${key}`));
              const value = Reflect.get(inner, member) as unknown;
              return typeof value === "function" ? value.bind(inner) : value;
            },
          });
        };
      }
      const member = Reflect.get(target, property) as unknown;
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}

async function upload(testEnv: DrainpipeEnv, name: string, body: Uint8Array, query = ""): Promise<Response> {
  const request = new Request(`http://drainpipe.test/files/${name}${query}`, { method: "POST", body, headers });
  return callWorker(request, testEnv);
}

async function keys(): Promise<string[]> {
  return (await env.BUCKET.list()).objects.map((object) => object.key).sort();
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("storage failures through the HTTP handler, on the real R2 binding", () => {
  const previous = encodeNumbers(sampleNumbers(3_000, 21));
  const next = encodeNumbers(sampleNumbers(20_000, 22));

  test.each([
    ["the second part's put (by the worker)", "part"],
    ["the manifest write (by the file's coordinator)", "manifest"],
  ] as const)("a failure of %s answers 502 JSON and leaves only the previous version", async (_what, failing) => {
    const stored = await upload(env, "f", previous, "?maxPartBytes=4096");
    expect(stored.status).toBe(201);
    const before = await keys();
    const response =
      failing === "part"
        ? await upload({ ...env, BUCKET: failingBucket(2, "part") }, "f", next, "?maxPartBytes=4096")
        : // The coordinator of "f" over its own storage, built with a store whose manifest writes fail.
          await runInDurableObject(env.COORDINATOR.getByName("f"), (_running, state) => {
            const coordinator = new FileCoordinator(state, env, new R2Store(failingBucket(1, "manifest")));
            const namespace = { getByName: () => coordinator } as unknown as DrainpipeEnv["COORDINATOR"];
            return upload({ ...env, COORDINATOR: namespace }, "f", next, "?maxPartBytes=4096");
          });
    expect(response.status).toBe(502);
    const body = (await response.json()) as { error: string; detail: string };
    expect(body.error).toBe("storage-failed");
    expect(body.detail).toMatch(/injected R2 failure/);
    expect(await keys()).toEqual(before);
    const content = await callWorker(new Request("http://drainpipe.test/files/f/content", { headers }), env);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(previous);
  });

  test("a failure completing a multipart part answers 502 JSON and leaves only the previous version", async () => {
    const stored = await upload(env, "mp", previous);
    expect(stored.status).toBe(201);
    const before = await keys();
    const large = encodeNumbers(sampleNumbers(1_500_000, 23));
    expect(large.byteLength).toBeGreaterThan(10 * 1024 * 1024);
    const response = await upload({ ...env, BUCKET: failingCompleteBucket() }, "mp", large, "?maxPartBytes=16777216");
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: "storage-failed" });
    expect(await keys()).toEqual(before);
    const content = await callWorker(new Request("http://drainpipe.test/files/mp/content", { headers }), env);
    expect(new Uint8Array(await content.arrayBuffer())).toEqual(previous);
  });

  test("MAX_UPLOAD_BYTES is enforced while streaming: 413 and nothing written", async () => {
    const response = await upload({ ...env, MAX_UPLOAD_BYTES: "10000" }, "big", next);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "body-too-large" });
    expect(await keys()).toEqual([]);
  });

  test("MAX_UPLOAD_NUMBERS is enforced: 413 and nothing written", async () => {
    const response = await upload({ ...env, MAX_UPLOAD_NUMBERS: "1000" }, "many", next, "?maxPartBytes=1024");
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "too-many-numbers" });
    expect(await keys()).toEqual([]);
  });

  test("without API_TOKEN mutating requests are refused with 503, AUTH_MODE=open lets them through", async () => {
    const closed = await upload({ ...env, API_TOKEN: "" }, "x", previous);
    expect(closed.status).toBe(503);
    expect(await closed.json()).toMatchObject({ error: "auth-not-configured" });
    const open = await callWorker(new Request("http://drainpipe.test/files/x", { method: "POST", body: previous }), {
      ...env,
      API_TOKEN: "",
      AUTH_MODE: "open",
    });
    expect(open.status).toBe(201);
  });
});
