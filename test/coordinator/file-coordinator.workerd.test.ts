import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, test } from "vitest";
import { CoordinatorNameError, type FileCoordinator } from "../../src/coordinator/file-coordinator.ts";
import { buildManifest, type Manifest } from "../../src/files/manifest.ts";
import { manifestKey, partKey } from "../../src/split/object-keys.ts";
import { listAll } from "../../src/store/list-all.ts";
import { R2Store } from "../../src/store/r2-store.ts";
import { utf8 } from "../support/bytes.ts";
import { emptyR2Store } from "../support/empty-r2-store.ts";

const LEASE = 60_000;
/**
 * A lease a test lets run out: long enough that the steps taken before it ends finish in time on a loaded
 * machine, short enough to wait for.
 */
const SHORT_LEASE = 1_000;
/** Waits until a lease of {@linkcode SHORT_LEASE} taken now has run out. */
const outliveShortLease = () => pause(SHORT_LEASE + 50);
/** No read grace period: a replaced version goes as soon as no leased read holds it. */
const NO_GRACE = 0;
const store = new R2Store(env.BUCKET);

/** A fresh coordinator per test: names are unique, since Durable Object state outlives a test. */
let name: string;
let coordinator: DurableObjectStub<FileCoordinator>;
let sequence = 0;

beforeEach(async () => {
  await emptyR2Store();
  name = `file-${++sequence}-${Date.now()}`;
  coordinator = env.COORDINATOR.getByName(name);
});

async function keys(): Promise<string[]> {
  const found: string[] = [];
  for await (const object of listAll(store, "")) found.push(object.key);
  return found.sort();
}

/** The manifest of a version of `name` written by `uploadId`: no parts (the coordinator never reads them). */
function manifestOf(uploadId: string): Manifest {
  const source = { kind: "primes", count: 0 } as const;
  return buildManifest({ name, uploadId, maxPartBytes: 1024, source, parts: [], sorted: true, createdAt: new Date(0) });
}

/** An admitted upload with one part written, ready to publish. */
async function writtenUpload(leaseMs = LEASE): Promise<{ uploadId: string; manifest: Manifest }> {
  const { uploadId } = await coordinator.beginUpload(leaseMs);
  await store.put(partKey(name, uploadId, 0), utf8(`${uploadId}\n`));
  return { uploadId, manifest: manifestOf(uploadId) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the coordinator's alarm if it is still pending (miniflare also fires due alarms by itself). */
async function alarmsDone(): Promise<void> {
  await runDurableObjectAlarm(coordinator);
}

describe("FileCoordinator", () => {
  test("publishes a manifest to the bucket and makes it the current version", async () => {
    const { uploadId, manifest } = await writtenUpload();
    expect(await coordinator.publish(uploadId, manifest, LEASE, NO_GRACE)).toEqual({ published: true, replaced: null });
    expect(await keys()).toEqual([manifestKey(name), partKey(name, uploadId, 0)]);
    expect((await coordinator.status()).current).toBe(uploadId);
    expect((await coordinator.status()).uploads).toEqual([]);
  });

  test("32 concurrent publications all succeed, in turn; only the last version's objects remain", async () => {
    const uploads = await Promise.all(Array.from({ length: 32 }, () => writtenUpload()));
    const results = await Promise.all(uploads.map((u) => coordinator.publish(u.uploadId, u.manifest, LEASE, NO_GRACE)));
    expect(results.every((result) => result.published)).toBe(true);
    const current = (await coordinator.status()).current!;
    expect(uploads.map((u) => u.uploadId)).toContain(current);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, current, 0)]);
    const stored = await (await store.get(manifestKey(name)))!.body;
    expect(JSON.parse(await new Response(stored).text())).toEqual(manifestOf(current));
  });

  test("a replaced version stays while a read holds it, and goes when the read ends", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    const read = (await coordinator.beginRead(LEASE))!;
    expect(read.manifest).toEqual(first.manifest);
    const second = await writtenUpload();
    await coordinator.publish(second.uploadId, second.manifest, LEASE, NO_GRACE);
    expect(await keys()).toContain(partKey(name, first.uploadId, 0));
    expect((await coordinator.status()).retiredWaiting).toBe(true);
    await coordinator.endRead(read.readId!);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, second.uploadId, 0)]);
  });

  test("a read without a lease writes nothing; its version is kept for the grace period, then goes", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    const read = (await coordinator.beginRead(null))!;
    expect({ readId: read.readId, reads: (await coordinator.status()).reads }).toEqual({ readId: null, reads: 0 });
    const second = await writtenUpload();
    await coordinator.publish(second.uploadId, second.manifest, LEASE, SHORT_LEASE);
    expect(await keys()).toContain(partKey(name, first.uploadId, 0));
    const held = (await coordinator.holdRead(first.uploadId, LEASE))!;
    await outliveShortLease();
    await alarmsDone();
    expect(await keys()).toContain(partKey(name, first.uploadId, 0));
    await coordinator.endRead(held.readId);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, second.uploadId, 0)]);
    expect(await coordinator.holdRead(first.uploadId, LEASE)).toBeNull();
  });

  test("a replaced version nobody holds goes at the alarm once its grace period ended", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    const second = await writtenUpload();
    await coordinator.publish(second.uploadId, second.manifest, LEASE, SHORT_LEASE);
    expect((await coordinator.status()).retiredWaiting).toBe(true);
    await outliveShortLease();
    await alarmsDone();
    expect(await keys()).toEqual([manifestKey(name), partKey(name, second.uploadId, 0)]);
  });

  test("a read whose lease ends (its reader died) frees the version at the alarm", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    await coordinator.beginRead(SHORT_LEASE);
    const second = await writtenUpload();
    await coordinator.publish(second.uploadId, second.manifest, LEASE, NO_GRACE);
    expect(await keys()).toContain(partKey(name, first.uploadId, 0));
    await outliveShortLease();
    await alarmsDone();
    expect(await keys()).toEqual([manifestKey(name), partKey(name, second.uploadId, 0)]);
    expect((await coordinator.status()).reads).toBe(0);
  });

  test("an upload whose lease ends is removed by the alarm, its multipart uploads aborted", async () => {
    const { uploadId } = await writtenUpload(SHORT_LEASE);
    const key = partKey(name, uploadId, 1);
    const multipart = await env.BUCKET.createMultipartUpload(key);
    const segment = await multipart.uploadPart(1, utf8("orphan segment\n"));
    expect(await coordinator.recordMultipart(uploadId, key, multipart.uploadId)).toBe(true);
    await outliveShortLease();
    await alarmsDone();
    expect(await keys()).toEqual([]);
    await expect(multipart.complete([segment])).rejects.toThrow();
    expect((await coordinator.status()).uploads).toEqual([]);
    expect(await coordinator.publish(uploadId, manifestOf(uploadId), LEASE, NO_GRACE)).toEqual({
      published: false,
      reason: "expired",
    });
    expect(await coordinator.renewUpload(uploadId, LEASE)).toBe(false);
  });

  test("a renewed lease keeps an upload alive past its first term", async () => {
    const { uploadId, manifest } = await writtenUpload(SHORT_LEASE);
    expect(await coordinator.renewUpload(uploadId, LEASE)).toBe(true);
    await outliveShortLease();
    await alarmsDone();
    expect(await coordinator.publish(uploadId, manifest, LEASE, NO_GRACE)).toMatchObject({ published: true });
  });

  test("remove retires the current version at once and leaves uploads in flight alone", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    const inFlight = await writtenUpload();
    expect(await coordinator.remove(NO_GRACE)).toEqual({ existed: true, remnants: 0 });
    expect(await keys()).toEqual([partKey(name, inFlight.uploadId, 0)]);
    expect(await coordinator.publish(inFlight.uploadId, inFlight.manifest, LEASE, NO_GRACE)).toEqual({
      published: true,
      replaced: null,
    });
    expect(await keys()).toEqual([manifestKey(name), partKey(name, inFlight.uploadId, 0)]);
  });

  test("a publication whose condition no longer holds is refused and removes what its upload wrote", async () => {
    const [a, b] = [await writtenUpload(), await writtenUpload()];
    expect(await coordinator.publish(a.uploadId, a.manifest, LEASE, NO_GRACE, { ifNoneMatch: "any" })).toMatchObject({
      published: true,
    });
    expect(await coordinator.publish(b.uploadId, b.manifest, LEASE, NO_GRACE, { ifNoneMatch: "any" })).toEqual({
      published: false,
      reason: "precondition-failed",
      current: a.uploadId,
    });
    expect(await keys()).toEqual([manifestKey(name), partKey(name, a.uploadId, 0)]);
    expect((await coordinator.status()).uploads).toEqual([]);
    const c = await writtenUpload();
    expect(await coordinator.publish(c.uploadId, c.manifest, LEASE, NO_GRACE, { ifMatch: [a.uploadId] })).toMatchObject(
      {
        published: true,
      },
    );
  });

  test("conditional admission and removal change nothing when the condition does not hold", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    expect(await coordinator.beginUploadIf({ ifMatch: ["other"] }, LEASE)).toEqual({
      reason: "precondition-failed",
      current: first.uploadId,
    });
    expect(await coordinator.remove(NO_GRACE, { ifNoneMatch: [first.uploadId] })).toEqual({
      reason: "precondition-failed",
      current: first.uploadId,
    });
    expect((await coordinator.status()).uploads).toEqual([]);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, first.uploadId, 0)]);
    expect(await coordinator.remove(NO_GRACE, { ifMatch: "any" })).toEqual({ existed: true, remnants: 0 });
  });

  test("remove of a name that holds only remnants removes them and says how many", async () => {
    await store.put(partKey(name, "dead-upload", 0), utf8("1\n"));
    await store.put(partKey(name, "dead-upload", 1), utf8("2\n"));
    await store.put(`${name}/stray`, utf8("?"));
    expect(await coordinator.remove(NO_GRACE)).toEqual({ existed: false, remnants: 3 });
    expect(await keys()).toEqual([]);
  });

  test("sweep removes what nothing refers to and keeps the current version and uploads in flight", async () => {
    const current = await writtenUpload();
    await coordinator.publish(current.uploadId, current.manifest, LEASE, NO_GRACE);
    const inFlight = await writtenUpload();
    const expired = await writtenUpload(10);
    await store.put(partKey(name, "never-admitted", 0), utf8("9\n"));
    await pause(30);
    await alarmsDone();
    expect(await keys()).not.toContain(partKey(name, expired.uploadId, 0));
    expect(await coordinator.sweep()).toBe(1);
    expect(await keys()).toEqual(
      [manifestKey(name), partKey(name, current.uploadId, 0), partKey(name, inFlight.uploadId, 0)].sort(),
    );
    expect((await coordinator.status()).uploads.map((u) => u.uploadId)).toEqual([inFlight.uploadId]);
  });

  test("a publication cut short after its manifest reached the bucket is completed when its lease ends", async () => {
    const first = await writtenUpload();
    await coordinator.publish(first.uploadId, first.manifest, LEASE, NO_GRACE);
    const cut = await writtenUpload(SHORT_LEASE);
    await runInDurableObject(coordinator, (_instance: FileCoordinator, state) => {
      state.storage.sql.exec("UPDATE attempts SET state = 'publishing' WHERE upload_id = ?", cut.uploadId);
    });
    await store.put(manifestKey(name), utf8(JSON.stringify(cut.manifest)));
    await outliveShortLease();
    await alarmsDone();
    expect((await coordinator.status()).current).toBe(cut.uploadId);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, cut.uploadId, 0)]);
  });

  test("takes over a file published before the coordinator existed", async () => {
    await store.put(partKey(name, "legacy", 0), utf8("2\n3\n"));
    await store.put(manifestKey(name), utf8(JSON.stringify(manifestOf("legacy"))));
    const read = await coordinator.beginRead(LEASE);
    expect(read?.manifest).toEqual(manifestOf("legacy"));
    expect(await coordinator.sweep()).toBe(0);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, "legacy", 0)]);
  });

  test("an object reached by id alone (no name) refuses every call", async () => {
    const id = env.COORDINATOR.idFromString(env.COORDINATOR.idFromName(`${name}-by-id`).toString());
    const refusal = await runInDurableObject(env.COORDINATOR.get(id), (instance: FileCoordinator) => {
      try {
        instance.status();
        return null;
      } catch (error) {
        return error;
      }
    });
    expect(refusal).toBeInstanceOf(CoordinatorNameError);
    expect((refusal as Error).message).toMatch(
      /^Cannot coordinate object [0-9a-f]+: it was not reached by a file name/,
    );
  });

  test("a read of a name without a file is null", async () => {
    expect(await coordinator.beginRead(LEASE)).toBeNull();
    expect(await coordinator.beginPartRead(0, LEASE)).toBeNull();
  });

  test("a part read hands over that part's record and its version's stamp only, and holds the version", async () => {
    const first = await writtenUpload();
    const part = {
      index: 0,
      key: partKey(name, first.uploadId, 0),
      bytes: 9,
      numbers: 1,
      first: 1,
      last: 1,
      etag: "e",
      lineIndex: 0,
      lineIndexFirst: 1,
    };
    const source = { kind: "primes", count: 1 } as const;
    const manifest = buildManifest({
      name,
      uploadId: first.uploadId,
      maxPartBytes: 1024,
      source,
      parts: [part],
      sorted: true,
    });
    await coordinator.publish(first.uploadId, manifest, LEASE, NO_GRACE);
    const lease = await coordinator.beginPartRead(0, LEASE);
    expect(lease).toEqual({
      readId: expect.any(String),
      leaseUntil: expect.any(Number),
      part,
      parts: 1,
      version: { uploadId: first.uploadId, createdAt: manifest.createdAt },
    });
    expect(await coordinator.beginPartRead(1, LEASE)).toEqual({ part: null, parts: 1 });
    expect((await coordinator.status()).reads).toBe(1);
    const second = await writtenUpload();
    await coordinator.publish(second.uploadId, second.manifest, LEASE, NO_GRACE);
    expect(await keys()).toContain(partKey(name, first.uploadId, 0));
    await coordinator.endRead((lease as { readId: string }).readId);
    expect(await keys()).toEqual([manifestKey(name), partKey(name, second.uploadId, 0)]);
  });
});
