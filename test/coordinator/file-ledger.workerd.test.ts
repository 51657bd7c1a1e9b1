import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, test } from "vitest";
import { type AttemptRecord, FileLedger } from "../../src/coordinator/file-ledger.ts";
import {
  LEDGER_MIGRATIONS,
  LEDGER_SCHEMA_VERSION,
  LedgerSchemaError,
  migrateLedger,
} from "../../src/coordinator/ledger-schema.ts";

/** The CREATE statements of the ledger before it had a schema version, verbatim: what deployed objects hold. */
const V1_SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS versions (
    upload_id TEXT PRIMARY KEY, state TEXT NOT NULL, manifest TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS attempts (
    upload_id TEXT PRIMARY KEY, state TEXT NOT NULL, lease_until INTEGER NOT NULL,
    client_token TEXT NOT NULL, started_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS multiparts (
    multipart_id TEXT PRIMARY KEY, upload_id TEXT NOT NULL, key TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS reads (
    read_id TEXT PRIMARY KEY, upload_id TEXT NOT NULL, lease_until INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS sessions (
    session_id TEXT PRIMARY KEY, state TEXT NOT NULL, max_part_bytes INTEGER NOT NULL,
    created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, manifest TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS segments (
    session_id TEXT NOT NULL, idx INTEGER NOT NULL, attempt_id TEXT NOT NULL, summary TEXT NOT NULL,
    PRIMARY KEY (session_id, idx));
`;

let sequence = 0;

/**
 * Runs `body` inside a fresh coordinator's Durable Object with its SQL storage emptied first (the coordinator
 * opened its own ledger when it started), so `body` sees the database as a new or a v1 object would.
 */
function inEmptyStorage<T>(body: (storage: DurableObjectStorage) => T): Promise<T> {
  const stub = env.COORDINATOR.getByName(`ledger-${++sequence}-${Date.now()}`);
  return runInDurableObject(stub, (_instance, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray();
    for (const { name } of tables) state.storage.sql.exec(`DROP TABLE "${name}"`);
    return body(state.storage);
  });
}

function attempt(uploadId: string, fields: Partial<AttemptRecord> = {}): AttemptRecord {
  return { uploadId, sessionId: null, state: "writing", leaseUntil: 1_000, clientToken: "", startedAt: 0, ...fields };
}

function schemaVersion(storage: DurableObjectStorage): number {
  return storage.sql.exec<{ version: number }>("SELECT version FROM schema_version").one().version;
}

describe("the ledger's schema", () => {
  test("a new database is created at the latest version", async () => {
    const result = await inEmptyStorage((storage) => {
      const before = migrateLedger(storage);
      return { before, version: schemaVersion(storage), again: migrateLedger(storage) };
    });
    expect(result).toEqual({ before: 0, version: LEDGER_SCHEMA_VERSION, again: LEDGER_SCHEMA_VERSION });
  });

  test("a database created by the v1 schema is migrated with its records", async () => {
    const result = await inEmptyStorage((storage) => {
      const { sql } = storage;
      sql.exec(V1_SCHEMA);
      sql.exec("INSERT INTO meta (key, value) VALUES ('name', 'primes'), ('initialised', '1')");
      sql.exec("INSERT INTO versions (upload_id, state, manifest) VALUES ('v1', 'current', '{}')");
      sql.exec(
        `INSERT INTO attempts (upload_id, state, lease_until, client_token, started_at) VALUES
         ('single', 'writing', 500, 'token', 1), ('s1/s00003-x', 'writing', 600, '', 2)`,
      );
      sql.exec(
        `INSERT INTO sessions (session_id, state, max_part_bytes, created_at, expires_at, manifest)
         VALUES ('s1', 'open', 1024, 0, 9000, '')`,
      );
      sql.exec("INSERT INTO segments (session_id, idx, attempt_id, summary) VALUES ('s1', 0, 's1/s00000-y', '{}')");
      const before = migrateLedger(storage);
      const ledger = new FileLedger(storage);
      return {
        before,
        version: schemaVersion(storage),
        initialised: ledger.initialised(),
        current: ledger.current()?.uploadId,
        attempts: ledger.attempts(),
        sessionAttempts: ledger.sessionAttempts("s1").map((record) => record.uploadId),
        segments: ledger.segments("s1"),
        live: [...ledger.liveUploadIds()].sort(),
        name: sql.exec("SELECT value FROM meta WHERE key = 'name'").toArray(),
      };
    });
    expect(result).toEqual({
      before: 0,
      version: LEDGER_SCHEMA_VERSION,
      initialised: true,
      current: "v1",
      attempts: [
        attempt("single", { leaseUntil: 500, clientToken: "token", startedAt: 1 }),
        attempt("s1/s00003-x", { sessionId: "s1", leaseUntil: 600, startedAt: 2 }),
      ],
      sessionAttempts: ["s1/s00003-x"],
      segments: [{ index: 0, attemptId: "s1/s00000-y", summary: "{}" }],
      live: ["s1", "single", "v1"],
      name: [],
    });
  });

  test("a database at version 2 keeps its retired versions, held only by their leased reads", async () => {
    const result = await inEmptyStorage((storage) => {
      const { sql } = storage;
      sql.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
      for (const migration of LEDGER_MIGRATIONS.filter((step) => step.version <= 2)) sql.exec(migration.statements);
      sql.exec("INSERT INTO schema_version (version) VALUES (2)");
      sql.exec(
        `INSERT INTO versions (upload_id, state, manifest) VALUES
         ('old', 'retired', ''), ('read', 'retired', ''), ('now', 'current', '{}')`,
      );
      sql.exec("INSERT INTO reads (read_id, upload_id, lease_until) VALUES ('r1', 'read', 700)");
      const before = migrateLedger(storage);
      const ledger = new FileLedger(storage);
      return {
        before,
        version: schemaVersion(storage),
        current: ledger.current()?.uploadId,
        unread: ledger.unreadRetired(1),
        next: ledger.nextLeaseEnd(),
      };
    });
    // Retired before grace periods existed: kept until 0, so only a leased read holds them, as before.
    expect(result).toEqual({ before: 2, version: LEDGER_SCHEMA_VERSION, current: "now", unread: ["old"], next: 0 });
  });

  test("a database at a version newer than the code is refused", async () => {
    const failure = await inEmptyStorage((storage) => {
      migrateLedger(storage);
      storage.sql.exec("UPDATE schema_version SET version = ?", LEDGER_SCHEMA_VERSION + 1);
      try {
        new FileLedger(storage);
        return null;
      } catch (error) {
        return error;
      }
    });
    expect(failure).toBeInstanceOf(LedgerSchemaError);
    expect((failure as Error).message).toMatch(/^Cannot open the coordinator's ledger: it is at schema version/);
  });
});

describe("FileLedger", () => {
  test("versions: the current one, retired ones kept while read", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      const steps: unknown[] = [];
      steps.push(ledger.makeCurrent("a", "manifest a", 0));
      ledger.addRead("r1", "a", 5_000);
      steps.push(ledger.makeCurrent("b", "manifest b", 0));
      steps.push(ledger.current(), ledger.unreadRetired(0), ledger.hasRetired());
      ledger.dropRead("r1");
      steps.push(ledger.unreadRetired(0));
      ledger.dropVersion("a");
      steps.push(ledger.hasRetired(), ledger.retireCurrent(0), ledger.current(), ledger.unreadRetired(0));
      return steps;
    });
    expect(result).toEqual([
      null,
      "a",
      { uploadId: "b", state: "current", manifest: "manifest b" },
      [],
      true,
      ["a"],
      false,
      "b",
      null,
      ["b"],
    ]);
  });

  test("a retired version is kept until its grace period ends, and then while a leased read holds it", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      ledger.makeCurrent("a", "manifest a", 0);
      ledger.makeCurrent("b", "manifest b", 1_000);
      const inGrace = { unread: ledger.unreadRetired(999), next: ledger.nextLeaseEnd() };
      ledger.addRead("r1", "a", 5_000);
      const held = { unread: ledger.unreadRetired(1_000), next: ledger.nextLeaseEnd() };
      ledger.dropRead("r1");
      const after = { unread: ledger.unreadRetired(1_000), next: ledger.nextLeaseEnd() };
      return { inGrace, held, after, known: [ledger.hasVersion("a"), ledger.hasVersion("b"), ledger.hasVersion("c")] };
    });
    expect(result).toEqual({
      inGrace: { unread: [], next: 1_000 },
      held: { unread: [], next: 5_000 },
      after: { unread: ["a"], next: 1_000 },
      known: [true, true, false],
    });
  });

  test("the read grace period given last is remembered", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      const before = ledger.readGrace();
      ledger.rememberReadGrace(30_000);
      const first = ledger.readGrace();
      ledger.rememberReadGrace(0);
      return [before, first, ledger.readGrace()];
    });
    expect(result).toEqual([0, 30_000, 0]);
  });

  test("attempts: renewal, publishing, multipart uploads, expiry", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      ledger.addAttempt(attempt("u1", { leaseUntil: 100, startedAt: 1 }));
      ledger.addAttempt(attempt("u2", { leaseUntil: 200, startedAt: 2 }));
      ledger.addMultipart({ uploadId: "u1", key: "k1", multipartId: "m1" });
      ledger.addMultipart({ uploadId: "u1", key: "k2", multipartId: "m2" });
      ledger.dropMultipart("m2");
      const renewed = [ledger.renewAttempt("u2", 300), ledger.renewAttempt("gone", 300)];
      ledger.markPublishing("u1", 150);
      ledger.addRead("r1", "x", 120);
      const expired = ledger.expire(160);
      const reads = ledger.readCount();
      const multiparts = ledger.multiparts("u1");
      ledger.dropAttempt("u1");
      return { renewed, expired, reads, multiparts, after: ledger.multiparts("u1"), left: ledger.attempts() };
    });
    expect(result).toEqual({
      renewed: [true, false],
      expired: [attempt("u1", { state: "publishing", leaseUntil: 150, startedAt: 1 })],
      reads: 0,
      multiparts: [{ uploadId: "u1", key: "k1", multipartId: "m1" }],
      after: [],
      left: [attempt("u2", { leaseUntil: 300, startedAt: 2 })],
    });
  });

  test("sessions and segments: a segment sent again replaces the earlier write", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      const session = {
        sessionId: "s1",
        state: "open",
        maxPartBytes: 1024,
        createdAt: 0,
        expiresAt: 900,
        manifest: "",
      } as const;
      ledger.addSession(session);
      ledger.addAttempt(attempt("s1/s00000-a", { sessionId: "s1", leaseUntil: 700 }));
      const first = ledger.putSegment("s1", { index: 0, attemptId: "s1/s00000-a", summary: "a" });
      const second = ledger.putSegment("s1", { index: 0, attemptId: "s1/s00000-b", summary: "b" });
      ledger.putSegment("s1", { index: 1, attemptId: "s1/s00001-c", summary: "c" });
      const segments = ledger.segments("s1");
      const next = ledger.nextLeaseEnd();
      ledger.dropSegment("s1", 1);
      ledger.completeSession("s1", "manifest");
      return {
        first,
        second,
        segments,
        next,
        live: [...ledger.liveUploadIds()],
        completed: ledger.session("s1"),
        left: ledger.segments("s1"),
      };
    });
    expect(result).toEqual({
      first: null,
      second: "s1/s00000-a",
      segments: [
        { index: 0, attemptId: "s1/s00000-b", summary: "b" },
        { index: 1, attemptId: "s1/s00001-c", summary: "c" },
      ],
      next: 700,
      live: ["s1"],
      completed: {
        sessionId: "s1",
        state: "completed",
        maxPartBytes: 1024,
        createdAt: 0,
        expiresAt: 900,
        manifest: "manifest",
      },
      left: [],
    });
  });

  test("nothing waits for an alarm in an empty ledger; a dropped session leaves nothing", async () => {
    const result = await inEmptyStorage((storage) => {
      const ledger = new FileLedger(storage);
      const empty = ledger.nextLeaseEnd();
      ledger.addSession({
        sessionId: "s",
        state: "open",
        maxPartBytes: 1024,
        createdAt: 0,
        expiresAt: 50,
        manifest: "",
      });
      ledger.putSegment("s", { index: 0, attemptId: "s/s00000-a", summary: "a" });
      const withSession = ledger.nextLeaseEnd();
      ledger.dropSession("s");
      return {
        empty,
        withSession,
        sessions: ledger.sessions(),
        segments: ledger.segments("s"),
        after: ledger.nextLeaseEnd(),
      };
    });
    expect(result).toEqual({ empty: null, withSession: 50, sessions: [], segments: [], after: null });
  });
});
