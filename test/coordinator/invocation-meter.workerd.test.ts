import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import { FileCoordinator } from "../../src/coordinator/file-coordinator.ts";
import { partKey } from "../../src/split/object-keys.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { PLAN_SUBREQUESTS } from "../../src/store/request-budget.ts";
import { utf8 } from "../support/bytes.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";

// A Durable Object's calls and alarms are invocations with the plan's subrequests of their own, and local
// workerd counts none of them. The coordinator meters its bucket itself: these tests count, with a bucket of
// their own, the R2 calls each invocation makes, and check that clean-up too large for one invocation goes on in
// the next alarm instead of failing for good.

const FREE = PLAN_SUBREQUESTS.free;

/** `env.BUCKET` with every call counted (the test's own count, which refuses nothing). */
function countingBucket() {
  const count = { calls: 0 };
  const bucket = new Proxy(env.BUCKET, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        count.calls++;
        return Reflect.apply(value, target, args);
      };
    },
  });
  return { bucket, count };
}

/**
 * Runs `body` with the alarm of `state` kept by the test: the coordinator built there sets and reads it as usual,
 * but the runtime never fires it on the object's own instance, which would clean up beside the one under test.
 */
async function withTestAlarm<T>(
  state: DurableObjectState,
  body: (alarm: { at: number | null }) => Promise<T>,
): Promise<T> {
  const alarm = { at: null as number | null };
  const fakes = {
    getAlarm: async () => alarm.at,
    setAlarm: async (at: number | Date) => {
      alarm.at = Number(at);
    },
    deleteAlarm: async () => {
      alarm.at = null;
    },
  };
  for (const [method, fake] of Object.entries(fakes)) {
    Object.defineProperty(state.storage, method, { value: fake, configurable: true, writable: true });
  }
  try {
    return await body(alarm);
  } finally {
    for (const method of Object.keys(fakes)) Reflect.deleteProperty(state.storage, method);
  }
}

async function keys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const object of listAll(new R2Store(env.BUCKET), prefix)) found.push(object.key);
  return found;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  await emptyR2Store();
});

describe("the coordinator's own subrequests", () => {
  test("30 dead uploads on the Free plan are cleaned up over two alarms of at most 50 calls each", async () => {
    const name = `dead-uploads-${Date.now()}`;
    await runInDurableObject(env.COORDINATOR.getByName(name), async (_instance, state) => {
      const { bucket, count } = countingBucket();
      await withTestAlarm(state, async (alarm) => {
        const coordinator = new FileCoordinator(state, { ...env, PLAN: "free", BUCKET: bucket });
        const store = new R2Store(env.BUCKET);
        for (let upload = 0; upload < 30; upload++) {
          const { uploadId } = await coordinator.beginUpload(50);
          for (let part = 0; part < 3; part++) await store.put(partKey(name, uploadId, part), utf8(`${part}\n`));
        }
        await pause(100);
        const perAlarm: number[] = [];
        while (coordinator.status().uploads.length > 0) {
          expect(alarm.at, "an alarm is set while uploads wait for clean-up").not.toBeNull();
          const before = count.calls;
          await coordinator.alarm();
          perAlarm.push(count.calls - before);
          expect(perAlarm.length).toBeLessThan(5);
        }
        // Each dead upload takes a listing and a delete: 60 calls, 50 in the first alarm, the rest in the next.
        expect(perAlarm).toEqual([FREE, 10]);
        expect(await keys(`${name}/`)).toEqual([]);
        expect(alarm.at).toBeNull();
      });
    });
  });

  test("on the Paid plan the same clean-up is one alarm", async () => {
    const name = `dead-uploads-paid-${Date.now()}`;
    await runInDurableObject(env.COORDINATOR.getByName(name), async (_instance, state) => {
      const { bucket, count } = countingBucket();
      await withTestAlarm(state, async () => {
        const coordinator = new FileCoordinator(state, { ...env, PLAN: "paid", BUCKET: bucket });
        const store = new R2Store(env.BUCKET);
        for (let upload = 0; upload < 30; upload++) {
          const { uploadId } = await coordinator.beginUpload(50);
          await store.put(partKey(name, uploadId, 0), utf8("1\n"));
        }
        await pause(100);
        const before = count.calls;
        await coordinator.alarm();
        expect(count.calls - before).toBe(60);
        expect(coordinator.status().uploads).toEqual([]);
      });
    });
  });

  test("a malformed SUBREQUEST_LIMIT makes every call fail naming it", async () => {
    await runInDurableObject(env.COORDINATOR.getByName(`misconfigured-${Date.now()}`), async (_instance, state) => {
      const coordinator = new FileCoordinator(state, { ...env, SUBREQUEST_LIMIT: "lots" });
      expect(() => coordinator.status()).toThrow(/SUBREQUEST_LIMIT/);
    });
  });
});
