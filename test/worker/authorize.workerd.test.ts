import { exports } from "cloudflare:workers";
import { describe, expect, test } from "vitest";
import { authorize } from "../../src/worker/authorize.ts";
import { HttpError } from "../../src/worker/http-error.ts";
import { readSettings, type Settings } from "../../src/worker/settings.ts";

const base: Settings = readSettings({ API_TOKEN: "s3cret" });

function request(authorization?: string): Request {
  return new Request(
    "http://x/files",
    authorization === undefined ? {} : { headers: { Authorization: authorization } },
  );
}

async function refusal(promise: Promise<void>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe("authorize", () => {
  test("accepts the right bearer token for reads and writes", async () => {
    await expect(authorize(request("Bearer s3cret"), base, "write")).resolves.toBeUndefined();
    await expect(authorize(request("bearer   s3cret"), base, "read")).resolves.toBeUndefined();
  });

  test.each([
    ["no header", undefined],
    ["another scheme", "Basic czNjcmV0"],
    ["a wrong token", "Bearer s3cre"],
    ["a longer token", "Bearer s3cret!"],
    ["an empty token", "Bearer "],
  ])("refuses %s with 401 and a Bearer challenge", async (_what, header) => {
    const error = await refusal(authorize(request(header), base, "write"));
    expect(error.status).toBe(401);
    expect(error.code).toBe("unauthorized");
    expect(error.headers["WWW-Authenticate"]).toMatch(/^Bearer/);
  });

  test("public reads need no token, writes still do", async () => {
    const settings = { ...base, publicReads: true };
    await expect(authorize(request(), settings, "read")).resolves.toBeUndefined();
    expect((await refusal(authorize(request(), settings, "write"))).status).toBe(401);
  });

  test("without a configured token everything authenticated is refused with 503", async () => {
    const settings = { ...base, apiToken: undefined };
    const error = await refusal(authorize(request("Bearer anything"), settings, "write"));
    expect(error.status).toBe(503);
    expect(error.code).toBe("auth-not-configured");
  });

  test("open mode is explicit and lets everything through", async () => {
    const settings = { ...base, apiToken: undefined, authMode: "open" as const };
    await expect(authorize(request(), settings, "write")).resolves.toBeUndefined();
  });
});

describe("readSettings", () => {
  test("defaults", () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      authMode: "token",
      apiToken: undefined,
      publicReads: false,
      defaultMaxPartBytes: 10 * 1024 * 1024,
      plan: "paid",
      subrequests: 10_000,
      bodyPace: { idleMs: 30_000, bytesPerSecond: 16_384 },
    });
  });

  test("BODY_IDLE_SECONDS and BODY_MIN_RATE set the slowest accepted body", () => {
    expect(readSettings({ BODY_IDLE_SECONDS: "5", BODY_MIN_RATE: "1000" }).bodyPace).toEqual({
      idleMs: 5000,
      bytesPerSecond: 1000,
    });
  });

  test("READ_GRACE_SECONDS defaults to LEASE_SECONDS; 0 is allowed (every read leased)", () => {
    expect(readSettings({})).toMatchObject({ leaseMs: 60_000, readGraceMs: 60_000 });
    expect(readSettings({ LEASE_SECONDS: "20" })).toMatchObject({ leaseMs: 20_000, readGraceMs: 20_000 });
    expect(readSettings({ READ_GRACE_SECONDS: "0" })).toMatchObject({ leaseMs: 60_000, readGraceMs: 0 });
  });

  test("the plan sets the subrequests per request; SUBREQUEST_LIMIT overrides it", () => {
    expect(readSettings({ PLAN: "free" })).toMatchObject({ plan: "free", subrequests: 50 });
    expect(readSettings({ PLAN: "paid" })).toMatchObject({ plan: "paid", subrequests: 10_000 });
    // A Paid limit set with `[limits] subrequests`, lowered or raised (up to 10,000,000), and a lowered Free one.
    for (const limit of [1, 1000, 50_000, 10_000_000]) {
      expect(readSettings({ PLAN: "paid", SUBREQUEST_LIMIT: String(limit) })).toMatchObject({ subrequests: limit });
    }
    expect(readSettings({ PLAN: "free", SUBREQUEST_LIMIT: "10" })).toMatchObject({ plan: "free", subrequests: 10 });
  });

  test.each([
    ["AUTH_MODE", "none"],
    ["PUBLIC_READS", "yes"],
    ["MAX_UPLOAD_BYTES", "-1"],
    ["DEFAULT_MAX_PART_BYTES", "10"],
    ["PLAN", "enterprise"],
    ["SUBREQUEST_LIMIT", "10000001"],
    ["SUBREQUEST_LIMIT", "0"],
    ["BODY_IDLE_SECONDS", "0"],
    ["BODY_MIN_RATE", "fast"],
    ["READ_GRACE_SECONDS", "3601"],
    ["READ_GRACE_SECONDS", "-1"],
  ])("a malformed %s is a 500 misconfigured naming it", (variable, value) => {
    let caught: unknown;
    try {
      readSettings({ [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HttpError);
    expect((caught as HttpError).status).toBe(500);
    expect((caught as HttpError).message).toContain(variable);
  });
});

describe("the worker", () => {
  test("refuses unauthenticated requests before routing", async () => {
    for (const [method, path] of [
      ["GET", "/files"],
      ["POST", "/files/x"],
      ["DELETE", "/files/x"],
      ["GET", "/nope"],
    ] as const) {
      const response = await exports.default.fetch(new Request(`http://x${path}`, { method }));
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(await response.json()).toMatchObject({ error: "unauthorized" });
    }
  });
});
