/**
 * Bindings and variables the drainpipe worker reads from its environment
 * (declared in `wrangler.toml`, secrets in `.dev.vars` locally).
 */
export interface DrainpipeEnv {
  /** The R2 bucket that holds every upload's parts and manifest. */
  BUCKET: R2Bucket;
  /** Default size limit of one output part in bytes, used when a request names none. */
  DEFAULT_MAX_PART_BYTES?: string;
}

declare global {
  namespace Cloudflare {
    interface Env extends DrainpipeEnv {}
    interface GlobalProps {
      mainModule: typeof import("./index.ts");
    }
  }
}
