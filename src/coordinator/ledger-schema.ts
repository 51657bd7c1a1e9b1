/**
 * The versions of the coordinator's SQLite schema, as an ordered list of migrations. A database records the
 * version it is at in `schema_version`; opening it applies every later migration in order, in one transaction,
 * so a Durable Object deployed with an older schema keeps its records across an upgrade. A database created
 * before the schema had a version has the tables of version 1 and no `schema_version`: migration 1 creates only
 * what is missing, so it runs on such a database as on a new one.
 *
 * @module
 */

/** One step of the schema: the statements that take a database from `version − 1` to `version`. */
export interface LedgerMigration {
  /** The version the database is at once the statements ran. */
  version: number;
  /** What the step changes, for a reader of this list. */
  change: string;
  /** The SQL statements, run in order. */
  statements: string;
}

/** Every migration, oldest first; append new ones, never edit a published one. */
export const LEDGER_MIGRATIONS: readonly LedgerMigration[] = [
  {
    version: 1,
    change: "versions, attempts with their multipart uploads, reads, upload sessions and their segments",
    statements: `
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
        PRIMARY KEY (session_id, idx));`,
  },
  {
    version: 2,
    change:
      "an attempt names its upload session in a column (version 1 told it by the id's prefix `<session>/`); " +
      "the file name is no longer recorded (the object knows it from its id)",
    statements: `
      ALTER TABLE attempts ADD COLUMN session_id TEXT;
      UPDATE attempts SET session_id = substr(upload_id, 1, instr(upload_id, '/') - 1)
        WHERE instr(upload_id, '/') > 0;
      CREATE INDEX attempts_by_session ON attempts (session_id) WHERE session_id IS NOT NULL;
      DELETE FROM meta WHERE key = 'name';`,
  },
  {
    version: 3,
    change:
      "a retired version records until when it is kept for readers that hold no lease (`keep_until`, ms since the " +
      "epoch, its retirement plus the read grace period); versions retired before have 0: kept only while leased",
    statements: `
      ALTER TABLE versions ADD COLUMN keep_until INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 4,
    change:
      "tus uploads (`/tus/<id>`): each one's record as versioned JSON (`tus-record.ts`), with its expiry in a column " +
      "of its own for the alarm",
    statements: `
      CREATE TABLE tus_uploads (
        id TEXT PRIMARY KEY, expires_at INTEGER NOT NULL, record TEXT NOT NULL);`,
  },
];

/** The version a database is at once {@linkcode migrateLedger} ran: the last migration's. */
export const LEDGER_SCHEMA_VERSION = LEDGER_MIGRATIONS.at(-1)?.version ?? 0;

/**
 * Brings the database behind `storage` to {@linkcode LEDGER_SCHEMA_VERSION}, applying the migrations it lacks in
 * one transaction; returns the version it was at before (0 for a new database or one from before versions).
 *
 * @throws {LedgerSchemaError} when the database is at a version newer than this code knows.
 * @example
 * ```ts
 * declare const storage: DurableObjectStorage;
 * migrateLedger(storage); // 0 the first time
 * migrateLedger(storage); // LEDGER_SCHEMA_VERSION from then on
 * ```
 */
export function migrateLedger(storage: DurableObjectStorage): number {
  return storage.transactionSync(() => {
    const { sql } = storage;
    sql.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
    const [row] = sql.exec<{ version: number }>("SELECT version FROM schema_version").toArray();
    const from = row?.version ?? 0;
    if (from > LEDGER_SCHEMA_VERSION) {
      throw new LedgerSchemaError(
        `Cannot open the coordinator's ledger: it is at schema version ${from}, this code knows up to ` +
          `${LEDGER_SCHEMA_VERSION} (roll the worker forward again)`,
      );
    }
    for (const migration of LEDGER_MIGRATIONS) {
      if (migration.version > from) sql.exec(migration.statements);
    }
    if (row === undefined) sql.exec("INSERT INTO schema_version (version) VALUES (?)", LEDGER_SCHEMA_VERSION);
    else sql.exec("UPDATE schema_version SET version = ?", LEDGER_SCHEMA_VERSION);
    return from;
  });
}

/** The ledger's database cannot be brought to the schema this code uses. */
export class LedgerSchemaError extends Error {
  override name = "LedgerSchemaError";
}
