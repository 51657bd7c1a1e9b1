/**
 * The worker's bindings as one request sees them: every call that the platform counts as a subrequest is
 * charged to the request's {@linkcode RequestBudget} first, and refused past its limit as the platform would.
 *
 * @module
 */
import type { RequestBudget } from "./request-budget.ts";

/** The R2 bucket methods that reach the storage service, each one subrequest. */
const BUCKET_CALLS = new Set(["head", "get", "put", "delete", "list", "createMultipartUpload"]);
/** The multipart upload methods that reach the storage service. */
const MULTIPART_CALLS = new Set(["uploadPart", "complete", "abort"]);

/**
 * `bucket` with every storage call charged to `budget`. `createMultipartUpload` and `resumeMultipartUpload` hand
 * out multipart uploads whose `uploadPart`, `complete` and `abort` are charged too.
 *
 * @example
 * ```ts
 * import { RequestBudget } from "./request-budget.ts";
 * declare const env: { BUCKET: R2Bucket };
 * const budget = new RequestBudget(50);
 * await meteredBucket(env.BUCKET, budget).head("primes/manifest.json");
 * budget.used; // 1
 * ```
 */
export function meteredBucket(bucket: R2Bucket, budget: RequestBudget): R2Bucket {
  return metered(bucket, budget, (property) => {
    if (property === "resumeMultipartUpload") {
      return { wrap: (upload) => meteredMultipart(upload as R2MultipartUpload, budget) };
    }
    if (property === "createMultipartUpload") {
      const wrap = (created: unknown) =>
        (created as Promise<R2MultipartUpload>).then((upload) => meteredMultipart(upload, budget));
      return { charge: `R2 ${property}`, wrap };
    }
    return BUCKET_CALLS.has(property) ? { charge: `R2 ${property}` } : undefined;
  });
}

function meteredMultipart(upload: R2MultipartUpload, budget: RequestBudget): R2MultipartUpload {
  return metered(upload, budget, (property) =>
    MULTIPART_CALLS.has(property) ? { charge: `R2 ${property}` } : undefined,
  );
}

/**
 * `namespace` whose stubs charge `budget` for every method call (each is a request to the Durable Object).
 * Getting a stub (`getByName`, `get`) is local and free.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import { RequestBudget } from "./request-budget.ts";
 * declare const env: { COORDINATOR: DurableObjectNamespace<FileCoordinator> };
 * const budget = new RequestBudget(50);
 * await meteredNamespace(env.COORDINATOR, budget).getByName("primes").status();
 * budget.used; // 1
 * ```
 */
export function meteredNamespace<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  budget: RequestBudget,
): DurableObjectNamespace<T> {
  const stub = (created: unknown) =>
    metered(created as DurableObjectStub<T>, budget, (property) =>
      // `then` must stay as it is, or awaiting the stub would call it.
      property === "then" ? undefined : { charge: `the coordinator's ${property}` },
    );
  return metered(namespace, budget, (property) =>
    property === "getByName" || property === "get" ? { wrap: stub } : undefined,
  );
}

/** What a metered method does around the call: the name it is charged as, and what it makes of the result. */
interface MeteredCall {
  charge?: string;
  wrap?: (result: unknown) => unknown;
}

/**
 * `target` whose methods run as `callOf` says: charged to `budget` under a name, their results wrapped, or (for
 * `undefined`) untouched. Methods are bound with `Function.prototype.bind` and called with `Reflect.apply`: on a
 * Durable Object stub, `value.bind` or `value.apply` would be calls to remote methods of those names.
 */
function metered<T extends object>(
  target: T,
  budget: RequestBudget,
  callOf: (property: string) => MeteredCall | undefined,
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof property !== "string" || typeof value !== "function") return value;
      const call = callOf(property);
      if (call === undefined) return Function.prototype.bind.call(value, object);
      return (...args: unknown[]) => {
        if (call.charge !== undefined) budget.charge(call.charge);
        const result: unknown = Reflect.apply(value, object, args);
        return call.wrap ? call.wrap(result) : result;
      };
    },
  });
}
