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
  return new Proxy(bucket, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== "string" || typeof value !== "function") return value;
      if (property === "resumeMultipartUpload") {
        return (key: string, uploadId: string) => meteredMultipart(target.resumeMultipartUpload(key, uploadId), budget);
      }
      if (!BUCKET_CALLS.has(property)) return value.bind(target);
      const call = `R2 ${property}`;
      if (property === "createMultipartUpload") {
        return async (...args: Parameters<R2Bucket["createMultipartUpload"]>) => {
          budget.charge(call);
          return meteredMultipart(await target.createMultipartUpload(...args), budget);
        };
      }
      return (...args: unknown[]) => {
        budget.charge(call);
        return Reflect.apply(value, target, args);
      };
    },
  });
}

function meteredMultipart(upload: R2MultipartUpload, budget: RequestBudget): R2MultipartUpload {
  return new Proxy(upload, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== "string" || typeof value !== "function") return value;
      if (!MULTIPART_CALLS.has(property)) return value.bind(target);
      return (...args: unknown[]) => {
        budget.charge(`R2 ${property}`);
        return Reflect.apply(value, target, args);
      };
    },
  });
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
  return new Proxy(namespace, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "getByName" || property === "get") {
        return (...args: unknown[]) => meteredStub(Reflect.apply(value, target, args) as DurableObjectStub<T>, budget);
      }
      return value.bind(target);
    },
  });
}

function meteredStub<T extends Rpc.DurableObjectBranded | undefined>(
  stub: DurableObjectStub<T>,
  budget: RequestBudget,
): DurableObjectStub<T> {
  return new Proxy(stub, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      // `id` and `name` are local; `then` must stay undefined, or awaiting the stub would call it.
      if (typeof property !== "string" || typeof value !== "function" || property === "then") return value;
      // A stub's methods are remote: `value.apply` would be a call to a method named "apply".
      return (...args: unknown[]) => {
        budget.charge(`the coordinator's ${property}`);
        return Reflect.apply(value, target, args);
      };
    },
  });
}
