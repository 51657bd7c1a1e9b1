import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import type { DrainpipeEnv } from "../../src/worker/env.ts";
import { utf8 } from "../support/bytes.ts";
import { callWorker } from "../support/call-worker.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";

const headers = { Authorization: "Bearer test-token" };

function list(testEnv: DrainpipeEnv, init: RequestInit = { headers }): Promise<Response> {
  return callWorker(new Request("http://drainpipe.test/files", init), testEnv);
}

function upload(testEnv: DrainpipeEnv, name: string, body = "1\n2\n3\n"): Promise<Response> {
  return callWorker(
    new Request(`http://drainpipe.test/files/${name}`, { method: "POST", body: utf8(body), headers }),
    testEnv,
  );
}

/** A copy of `env` that counts how often the worker reads its bindings and variables. */
function countingEnv(): { env: DrainpipeEnv; reads: () => number } {
  let reads = 0;
  const counted = new Proxy(
    { ...env },
    {
      get(target, property, receiver) {
        reads++;
        return Reflect.get(target, property, receiver);
      },
    },
  );
  return { env: counted, reads: () => reads };
}

beforeEach(async () => {
  await emptyR2Store();
});

describe("the worker's configuration, built once per env object", () => {
  test("the settings, the store and the routes are built on the first request only", async () => {
    const counting = countingEnv();
    expect((await list(counting.env)).status).toBe(200);
    const afterFirst = counting.reads();
    expect(afterFirst).toBeGreaterThan(0);
    expect((await upload(counting.env, "a")).status).toBe(201);
    expect((await list(counting.env)).status).toBe(200);
    expect(counting.reads()).toBe(afterFirst);
  });

  test("each env object keeps its own settings", async () => {
    const small = { ...env, MAX_UPLOAD_BYTES: "4" };
    const open = { ...env, API_TOKEN: "", AUTH_MODE: "open" };
    for (let round = 0; round < 2; round++) {
      expect((await upload(small, "s")).status).toBe(413);
      expect((await upload(env, "e")).status).toBe(201);
      expect((await list(open, {})).status).toBe(200);
      expect((await list(env, {})).status).toBe(401);
    }
  });

  test.each([
    ["MAX_UPLOAD_NUMBERS", "lots"],
    ["DEFAULT_MAX_PART_BYTES", "12"],
    ["AUTH_MODE", "sometimes"],
  ])("a malformed %s answers every request with 500 misconfigured", async (variable, value) => {
    const broken = { ...env, [variable]: value };
    const responses = [await list(broken), await list(broken, {}), await upload(broken, "b"), await list(broken)];
    for (const response of responses) {
      expect(response.status).toBe(500);
      const body = (await response.json()) as { error: string; detail: string };
      expect(body.error).toBe("misconfigured");
      expect(body.detail).toContain(variable);
    }
    expect((await list({ ...env })).status).toBe(200);
  });
});
