import {
  loadConfig,
  type Logger,
  signAccessToken,
  startRuntime,
  type RuntimeHandle,
  type TokenClaims,
} from "@openpractice/runtime";
import { freshDatabase, openRawQuery, type EngineName } from "./engines.js";
import { makeTempDir } from "./temp-dir.js";

export const TEST_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

export interface TestRuntime {
  url: string;
  engine: EngineName;
  runtime: RuntimeHandle;
  databaseUrl: string;
  /** The runtime's data directory (generated secrets live here). */
  dataDir: string;
  /** A token for organisation 1 (or the given claims) with scope "read write". */
  token(claims?: Partial<TokenClaims>): Promise<string>;
  /** fetch against the runtime with a bearer token and JSON body. */
  call(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** Rows read straight from the database with the engine's driver (`?` placeholders), independent of our repositories. */
  rawRows(sql: string, ...params: unknown[]): Promise<Record<string, unknown>[]>;
  /** The first column of the first row of rawRows. */
  scalar(sql: string, ...params: unknown[]): Promise<unknown>;
  stop(): Promise<void>;
}

export interface TestRuntimeOptions {
  /** Database engine; default SQLite. */
  engine?: EngineName;
  /** Use another runtime's database (two instances, one store). */
  shareDatabaseOf?: TestRuntime;
  /** Where the runtime logs (e.g. createLogger("debug", sink) to read its lines); default: silent. */
  logger?: Logger;
}

/** Starts the real runtime (h3 on node:http) on a random loopback port over a fresh database of the engine. */
export async function startTestRuntime(
  env: Record<string, string> = {},
  options: TestRuntimeOptions = {},
): Promise<TestRuntime> {
  const engine = options.shareDatabaseOf?.engine ?? options.engine ?? "sqlite";
  const temp = makeTempDir();
  const db = options.shareDatabaseOf
    ? { url: options.shareDatabaseOf.databaseUrl, drop: async () => undefined }
    : await freshDatabase(engine, { migrated: true });
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: db.url,
    OPENPRACTICE_DATA_DIR: temp.dir,
    OPENPRACTICE_JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: "silent",
    OPENPRACTICE_ENV: "development",
    ...env,
  });
  const runtime = await startRuntime({ config, ...(options.logger ? { logger: options.logger } : {}) });
  const raw = await openRawQuery(engine, db.url);
  const token = (claims: Partial<TokenClaims> = {}) =>
    signAccessToken(TEST_SECRET, { organisationId: 1, userId: 101, scope: "read write", ...claims });
  const rawRows = (sql: string, ...params: unknown[]) => raw.query(sql, params);
  return {
    url: runtime.url,
    engine,
    runtime,
    databaseUrl: db.url,
    dataDir: temp.dir,
    token,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const bearer = options.token === undefined ? await token() : options.token;
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      let body: string | undefined;
      if (options.body !== undefined) {
        headers["content-type"] ??= "application/json";
        body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      }
      return fetch(`${runtime.url}${path}`, { method, headers, body: body ?? null });
    },
    rawRows,
    async scalar(sql, ...params) {
      const [row] = await rawRows(sql, ...params);
      return row ? Object.values(row)[0] : undefined;
    },
    async stop() {
      await raw.close();
      await runtime.stop();
      await db.drop();
      temp.remove();
    },
  };
}
