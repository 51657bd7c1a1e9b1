/**
 * What the worker's routes use for one request: the bindings metered against the request's subrequest budget,
 * and the budget itself to plan with.
 *
 * @module
 */
import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
import { FileCatalog } from "../files/file-catalog.ts";
import { assertValidName } from "../files/file-name.ts";
import { meteredBucket } from "../store/metered-bucket.ts";
import type { ObjectStore } from "../store/object-store.ts";
import { R2Store } from "../store/r2-store.ts";
import { RequestBudget } from "../store/request-budget.ts";
import type { DrainpipeEnv } from "./env.ts";
import { meteredNamespace } from "./metered-namespace.ts";
import { isPartialOwner } from "./tus-id.ts";

/** One request's view of the worker's bindings. */
export interface RequestScope {
  /** The subrequests this request may still make; every call below is charged to it. */
  budget: RequestBudget;
  /** The bucket, as drainpipe's store. */
  store: ObjectStore;
  /** Complete files in the bucket. */
  catalog: FileCatalog;
  /** The coordinator of a file name (validated first: an invalid name throws `InvalidNameError`). */
  coordinatorOf(name: string): DurableObjectStub<FileCoordinator>;
  /**
   * The coordinator that owns a tus upload: a file name's (validated), or a partial upload's own (see `tus-id.ts`).
   */
  ownerOf(owner: string): DurableObjectStub<FileCoordinator>;
}

/**
 * A fresh scope over `env`'s bindings for one request that may make `subrequests` subrequests.
 *
 * @example
 * ```ts
 * import type { DrainpipeEnv } from "./env.ts";
 * declare const env: DrainpipeEnv;
 * const scope = requestScope(env, 50);
 * await scope.catalog.manifest("primes");
 * scope.budget.used; // 1
 * ```
 */
export function requestScope(env: Pick<DrainpipeEnv, "BUCKET" | "COORDINATOR">, subrequests: number): RequestScope {
  const budget = new RequestBudget(subrequests);
  const store = new R2Store(meteredBucket(env.BUCKET, budget));
  const coordinators = meteredNamespace(env.COORDINATOR, budget);
  return {
    budget,
    store,
    catalog: new FileCatalog(store),
    coordinatorOf: (name) => coordinators.getByName(assertValidName(name)),
    ownerOf: (owner) => coordinators.getByName(isPartialOwner(owner) ? owner : assertValidName(owner)),
  };
}
