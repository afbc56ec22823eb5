import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { loadConfig, signAccessToken, startRuntime, type RuntimeHandle, type TokenClaims } from "@openpractice/runtime";
import { makeTempDir } from "./temp-dir.js";

export const TEST_SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

export interface TestRuntime {
  url: string;
  runtime: RuntimeHandle;
  dbFile: string;
  /** The runtime's data directory (generated secrets live here). */
  dataDir: string;
  /** A token for organisation 1 (or the given claims) with scope "read write". */
  token(claims?: Partial<TokenClaims>): Promise<string>;
  /** fetch against the runtime with a bearer token and JSON body. */
  call(method: string, path: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** Rows read straight from the SQLite file, independent of our repositories. */
  rawRows(sql: string, ...params: unknown[]): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts the real runtime (h3 on node:http, SQLite file) on a random loopback port. */
export async function startTestRuntime(env: Record<string, string> = {}, shared?: { dbFile: string }): Promise<TestRuntime> {
  const temp = makeTempDir();
  const dbFile = shared?.dbFile ?? join(temp.dir, "openpractice.db");
  const config = loadConfig({
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: `sqlite:${dbFile}`,
    OPENPRACTICE_DATA_DIR: temp.dir,
    OPENPRACTICE_JWT_SECRET: TEST_SECRET,
    LOG_LEVEL: "silent",
    OPENPRACTICE_ENV: "development",
    ...env,
  });
  const runtime = await startRuntime({ config });
  const raw = new BetterSqlite3(dbFile, { readonly: true });
  const token = (claims: Partial<TokenClaims> = {}) => signAccessToken(TEST_SECRET, { organisationId: 1, userId: 101, scope: "read write", ...claims });
  return {
    url: runtime.url,
    runtime,
    dbFile,
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
      return fetch(`${runtime.url}${path}`, { method, headers, body });
    },
    rawRows: (sql, ...params) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
    async stop() {
      raw.close();
      await runtime.stop();
      temp.remove();
    },
  };
}
