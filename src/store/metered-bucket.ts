/**
 * An R2 bucket as one invocation (a request to the worker, a call or alarm of a Durable Object) sees it: every
 * call that the platform counts as a subrequest is charged to the invocation's `RequestBudget` first,
 * and refused past its limit as the platform would.
 *
 * @module
 */
import { type Meter, metered } from "./metered.ts";

/** The R2 bucket methods that reach the storage service, each one subrequest. */
const BUCKET_CALLS = new Set(["head", "get", "put", "delete", "list", "createMultipartUpload"]);
/** The multipart upload methods that reach the storage service. */
const MULTIPART_CALLS = new Set(["uploadPart", "complete", "abort"]);

/**
 * `bucket` (an R2 bucket binding) with every storage call charged to `budget`. `createMultipartUpload` and
 * `resumeMultipartUpload` hand out multipart uploads whose `uploadPart`, `complete` and `abort` are charged too.
 *
 * @example
 * ```ts
 * import type { R2BucketLike } from "./r2-store.ts";
 * import { RequestBudget } from "./request-budget.ts";
 * declare const env: { BUCKET: R2BucketLike };
 * const budget = new RequestBudget(50);
 * await meteredBucket(env.BUCKET, budget).get("primes/manifest.json");
 * budget.used; // 1
 * ```
 */
export function meteredBucket<Bucket extends object>(bucket: Bucket, budget: Meter): Bucket {
  return metered(bucket, budget, (property) => {
    if (property === "resumeMultipartUpload") {
      return { wrap: (upload) => meteredMultipart(upload as object, budget) };
    }
    if (property === "createMultipartUpload") {
      const wrap = (created: unknown) =>
        (created as Promise<object>).then((upload) => meteredMultipart(upload, budget));
      return { charge: `R2 ${property}`, wrap };
    }
    return BUCKET_CALLS.has(property) ? { charge: `R2 ${property}` } : undefined;
  });
}

function meteredMultipart<Upload extends object>(upload: Upload, budget: Meter): Upload {
  return metered(upload, budget, (property) =>
    MULTIPART_CALLS.has(property) ? { charge: `R2 ${property}` } : undefined,
  );
}
