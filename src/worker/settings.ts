import { DEFAULT_MAX_PART_BYTES, parseMaxPartBytes } from "../split/part-size.ts";
import { type Plan, subrequestLimit } from "../store/request-budget.ts";
import type { ReadPace } from "../streams/adapters/read-pace.ts";
import type { DrainpipeEnv } from "./env.ts";
import { HttpError } from "./http-error.ts";

/** Default `MAX_UPLOAD_BYTES`: 4 GiB, past any plan's request body limit, so the plan's limit applies. */
export const DEFAULT_MAX_UPLOAD_BYTES = 4 * 1024 * 1024 * 1024;
/** Default `MAX_UPLOAD_NUMBERS`: 500,000,000. */
export const DEFAULT_MAX_UPLOAD_NUMBERS = 500_000_000;
/** Default `LEASE_SECONDS`: a dead upload's or reader's objects are reclaimed at most a minute after it died. */
export const DEFAULT_LEASE_SECONDS = 60;
/** Longest accepted `LEASE_SECONDS`: one hour. */
export const MAX_LEASE_SECONDS = 3600;
/** Longest accepted `READ_GRACE_SECONDS`: one hour. */
export const MAX_READ_GRACE_SECONDS = 3600;
/** Default `MAX_SEGMENT_BYTES`: under the smallest plan's 100 MB request body limit. */
export const DEFAULT_MAX_SEGMENT_BYTES = 95_000_000;
/** Default `UPLOAD_TTL`: an upload session not completed within a day is removed. */
export const DEFAULT_UPLOAD_TTL_SECONDS = 86_400;
/** Default `BODY_IDLE_SECONDS`: a body that sends nothing for 30 s is given up. */
export const DEFAULT_BODY_IDLE_SECONDS = 30;
/**
 * Default `BODY_MIN_RATE`: 16 KiB/s, so a 1 MiB read of the body may take 30 + 64 s; a body trickling slower is
 * given up.
 */
export const DEFAULT_BODY_MIN_RATE = 16 * 1024;

/** The worker's configuration, parsed and checked. */
export interface Settings {
  /** How requests are authenticated. */
  authMode: "token" | "open";
  /** The bearer token, when one is configured. */
  apiToken: string | undefined;
  /** Whether reads need no token. */
  publicReads: boolean;
  /** Part size limit used when a request names none. */
  defaultMaxPartBytes: number;
  /** Largest accepted request body in bytes. */
  maxUploadBytes: number;
  /** Most numbers accepted in one upload or prime generation. */
  maxUploadNumbers: number;
  /** How long an upload or read stays admitted without renewal, in milliseconds. */
  leaseMs: number;
  /**
   * How long a replaced or deleted version is kept for reads that hold no lease, in milliseconds
   * (`READ_GRACE_SECONDS`, default the lease length); 0: every read takes a lease.
   */
  readGraceMs: number;
  /** Largest segment of an upload session, in bytes. */
  maxSegmentBytes: number;
  /** How long an upload session stays open, in milliseconds. */
  uploadTtlMs: number;
  /** The Workers plan the worker is deployed on: it sets the default of {@linkcode Settings.subrequests}. */
  plan: Plan;
  /** Subrequests (binding calls) one request may make: `SUBREQUEST_LIMIT`, or the plan's (Paid 10,000, Free 50). */
  subrequests: number;
  /** The slowest accepted request body (`BODY_IDLE_SECONDS`, `BODY_MIN_RATE`). */
  bodyPace: ReadPace;
  /**
   * The origins whose pages may call the API across origins (`CORS_ORIGINS`: a comma-separated list of origins such
   * as `https://app.example`, or `*` for any); empty by default: no cross-origin access.
   */
  corsOrigins: readonly string[];
}

/**
 * Reads the worker's settings from its environment. A malformed value is a configuration error: every
 * request then fails with `500 misconfigured` naming the variable, rather than running with a guess.
 *
 * @example
 * ```ts
 * readSettings({ API_TOKEN: "s3cret" }).authMode; // "token"
 * ```
 */
export function readSettings(env: Omit<DrainpipeEnv, "BUCKET" | "COORDINATOR">): Settings {
  const plan = oneOf("PLAN", env.PLAN, ["free", "paid"], "paid");
  const leaseSeconds = atMost(
    "LEASE_SECONDS",
    positive("LEASE_SECONDS", env.LEASE_SECONDS, DEFAULT_LEASE_SECONDS),
    MAX_LEASE_SECONDS,
  );
  return {
    plan,
    subrequests: subrequestsOf(env),
    authMode: oneOf("AUTH_MODE", env.AUTH_MODE, ["token", "open"], "token"),
    apiToken: env.API_TOKEN === undefined || env.API_TOKEN === "" ? undefined : env.API_TOKEN,
    publicReads: oneOf("PUBLIC_READS", env.PUBLIC_READS, ["true", "false"], "false") === "true",
    defaultMaxPartBytes: configured("DEFAULT_MAX_PART_BYTES", () =>
      parseMaxPartBytes(env.DEFAULT_MAX_PART_BYTES, DEFAULT_MAX_PART_BYTES),
    ),
    maxUploadBytes: positive("MAX_UPLOAD_BYTES", env.MAX_UPLOAD_BYTES, DEFAULT_MAX_UPLOAD_BYTES),
    maxUploadNumbers: positive("MAX_UPLOAD_NUMBERS", env.MAX_UPLOAD_NUMBERS, DEFAULT_MAX_UPLOAD_NUMBERS),
    maxSegmentBytes: positive("MAX_SEGMENT_BYTES", env.MAX_SEGMENT_BYTES, DEFAULT_MAX_SEGMENT_BYTES),
    uploadTtlMs: 1000 * positive("UPLOAD_TTL", env.UPLOAD_TTL, DEFAULT_UPLOAD_TTL_SECONDS),
    bodyPace: {
      idleMs: 1000 * positive("BODY_IDLE_SECONDS", env.BODY_IDLE_SECONDS, DEFAULT_BODY_IDLE_SECONDS),
      bytesPerSecond: positive("BODY_MIN_RATE", env.BODY_MIN_RATE, DEFAULT_BODY_MIN_RATE),
    },
    corsOrigins: originsOf(env.CORS_ORIGINS),
    leaseMs: 1000 * leaseSeconds,
    readGraceMs:
      1000 *
      atMost(
        "READ_GRACE_SECONDS",
        whole("READ_GRACE_SECONDS", env.READ_GRACE_SECONDS, leaseSeconds),
        MAX_READ_GRACE_SECONDS,
      ),
  };
}

/** The origins of `CORS_ORIGINS`: each `scheme://host[:port]` without a path, or `*` alone. */
function originsOf(value: string | undefined): string[] {
  const origins = (value ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin !== "");
  for (const origin of origins) {
    if (origin === "*") continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin !== origin) {
      throw misconfigured(
        "CORS_ORIGINS",
        `"${origin}" is not an origin (expected scheme://host[:port], comma-separated, or *)`,
      );
    }
  }
  return origins;
}

function misconfigured(variable: string, detail: string, cause?: unknown): HttpError {
  return new HttpError(500, "misconfigured", `Cannot use ${variable}: ${detail}`, { cause });
}

function oneOf<T extends string>(variable: string, value: string | undefined, allowed: T[], fallback: T): T {
  if (value === undefined || value === "") return fallback;
  if ((allowed as string[]).includes(value)) return value as T;
  throw misconfigured(variable, `"${value}" is not one of ${allowed.map((v) => `"${v}"`).join(", ")}`);
}

function positive(variable: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw misconfigured(variable, `"${value}" is not a positive whole number`);
  return parsed;
}

function whole(variable: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const parsed = /^[0-9]+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) throw misconfigured(variable, `"${value}" is not a whole number`);
  return parsed;
}

function atMost(variable: string, value: number, max: number): number {
  if (value > max) throw misconfigured(variable, `${value} is more than ${max}`);
  return value;
}

/** `subrequestLimit(env)`, its errors (which name the variable) as `500 misconfigured`. */
function subrequestsOf(env: Omit<DrainpipeEnv, "BUCKET" | "COORDINATOR">): number {
  try {
    return subrequestLimit(env);
  } catch (error) {
    throw new HttpError(500, "misconfigured", (error as Error).message, { cause: error });
  }
}

function configured<T>(variable: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw misconfigured(variable, error instanceof Error ? error.message : String(error), error);
  }
}
