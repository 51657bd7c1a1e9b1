/**
 * The file coordinators' namespace as one request sees it: every call to a coordinator is charged to the
 * request's {@linkcode RequestBudget} first, and refused past its limit as the platform would.
 *
 * @module
 */
import { metered } from "../store/metered.ts";
import type { RequestBudget } from "../store/request-budget.ts";

/**
 * `namespace` whose stubs charge `budget` for every method call (each is a request to the Durable Object).
 * Getting a stub (`getByName`, `get`) is local and free.
 *
 * @example
 * ```ts
 * import type { FileCoordinator } from "../coordinator/file-coordinator.ts";
 * import { RequestBudget } from "../store/request-budget.ts";
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
