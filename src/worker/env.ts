import type { FileCoordinator } from "../coordinator/file-coordinator.ts";

/**
 * Bindings, variables and secrets the drainpipe worker reads from its environment (variables in
 * `wrangler.toml`, secrets with `wrangler secret put`, locally in `.dev.vars`). See `settings.ts` for the
 * meaning and defaults of each.
 */
export interface DrainpipeEnv {
  /** The R2 bucket that holds every upload's parts and manifest. */
  BUCKET: R2Bucket;
  /** The bearer token that mutating requests (and reads, unless public) must carry. A secret. */
  API_TOKEN?: string;
  /** `"token"` (default): require the token; `"open"`: no authentication at all, for local development only. */
  AUTH_MODE?: string;
  /** `"true"` lets anyone read files without a token; default `"false"`. */
  PUBLIC_READS?: string;
  /** Default size limit of one part in bytes, used when a request names none. */
  DEFAULT_MAX_PART_BYTES?: string;
  /** Largest accepted request body in bytes. */
  MAX_UPLOAD_BYTES?: string;
  /** Most numbers accepted in one upload or prime generation. */
  MAX_UPLOAD_NUMBERS?: string;
  /** The file coordinators: one Durable Object per file name (see `src/coordinator/file-coordinator.ts`). */
  COORDINATOR: DurableObjectNamespace<FileCoordinator>;
  /** Seconds an upload or read stays admitted without a sign of life before its objects are reclaimed. */
  LEASE_SECONDS?: string;
  /**
   * Seconds a replaced or deleted version is kept for reads that took no lease (default `LEASE_SECONDS`); a read
   * still streaming at half of it takes a lease. `0`: every read takes a lease when it starts.
   */
  READ_GRACE_SECONDS?: string;
  /** Largest segment of an upload session, in bytes. */
  MAX_SEGMENT_BYTES?: string;
  /** Seconds an upload session stays open before it is removed. */
  UPLOAD_TTL?: string;
  /** `"paid"` (default) or `"free"`: the Workers plan, whose per-request subrequest limit the worker keeps. */
  PLAN?: string;
  /**
   * Subrequests one request may make, when not the plan's: the `[limits] subrequests` of `wrangler.toml` when it is
   * set, 1 to 10,000,000.
   */
  SUBREQUEST_LIMIT?: string;
  /** Seconds a request body may send nothing before it is refused with `408`. */
  BODY_IDLE_SECONDS?: string;
  /** Bytes per second below which a request body counts as stalled. */
  BODY_MIN_RATE?: string;
  /** Origins (comma-separated, or `*`) whose pages may call the API across origins; empty: none. */
  CORS_ORIGINS?: string;
}
