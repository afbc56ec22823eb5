import type { StorageEngine } from "@openpractice/core";

/**
 * One registry line per storage engine: its name, URL schemes and the
 * variable that names a test server, and how to load its package. Packages
 * load only when their URL is used: the server engines' drivers (pg, mysql2)
 * cost several hundred milliseconds of every start on the embedded default.
 * DATABASE_URL parsing (storage-from-url.ts) and the test engine list
 * (test/support/engines.ts) read this list.
 */
export interface EngineEntry {
  readonly name: string;
  readonly schemes: readonly string[];
  /** The variable .ci/with-databases.sh sets to a throw-away server's URL (SQLite needs none). */
  readonly testUrlVariable?: string;
  load(): Promise<StorageEngine>;
  /**
   * The driver settings DATABASE_URL chose that change what reaches the server, for the start-up log (logged
   * with "openpractice listening"); loads the engine's package.
   */
  settings?(url: string): Promise<Readonly<Record<string, boolean>>>;
}

export const ENGINES: readonly EngineEntry[] = Object.freeze([
  { name: "sqlite", schemes: ["sqlite:"], load: async () => (await import("@openpractice/sqlite")).sqliteEngine },
  {
    name: "postgres",
    schemes: ["postgres://", "postgresql://"],
    testUrlVariable: "OPENPRACTICE_TEST_POSTGRES_URL",
    load: async () => (await import("@openpractice/postgres")).postgresEngine,
    settings: async (url) => {
      const { pipelining, preparedStatements } = (await import("@openpractice/postgres")).postgresUrlSettings(url);
      return { pipelining, prepared_statements: preparedStatements };
    },
  },
  {
    name: "mysql",
    schemes: ["mysql://"],
    testUrlVariable: "OPENPRACTICE_TEST_MYSQL_URL",
    load: async () => (await import("@openpractice/mysql")).mysqlEngine,
    // Several statements in one text (mysql2's multipleStatements): off unless the URL asks for it.
    settings: async (url) => ({
      statement_batching: (await import("@openpractice/mysql")).mysqlUrlSettings(url).multipleStatements ?? false,
    }),
  },
]);

/** The registry line serving a URL, or undefined. */
export function engineForUrl(url: string): EngineEntry | undefined {
  return ENGINES.find((e) => e.schemes.some((scheme) => url.startsWith(scheme)));
}
