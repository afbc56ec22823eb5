import type { TestProject } from "vitest/node";
// The registry's own file, not the package's entry point: every run loads this setup, most with no server to ask,
// and the runtime's whole entry point would cost each of them a second.
import { ENGINES } from "../../packages/runtime/src/engines.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The version each engine's test server reported (`postgres` → `18.4`), for engineLabel in engines.ts. */
    serverVersions: Record<string, string>;
  }
}

/** The version the server at `url` reports, asked with the engine's own driver. */
async function serverVersion(engine: string, url: string): Promise<string> {
  if (engine === "postgres") {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // "15.18 (Debian 15.18-0+deb12u1)" on Debian's build: the number is enough.
      const { rows } = await client.query<{ server_version: string }>("show server_version");
      return rows[0]?.server_version.split(" ")[0] ?? "?";
    } finally {
      await client.end();
    }
  }
  const mysql = await import("mysql2/promise");
  const connection = await mysql.createConnection(url);
  try {
    const [rows] = await connection.query("select version() as version");
    return String((rows as Array<{ version: string }>)[0]?.version);
  } finally {
    await connection.end();
  }
}

/**
 * Once per run, before any test file: which server versions this run tests on, printed in the run's output and
 * handed to the test files (the PostgreSQL suites run on several versions: CONTRIBUTING.md, "Tests"). A URL whose
 * server does not answer fails the run here, once, instead of in every file.
 */
export default async function setup(project: TestProject): Promise<void> {
  const versions: Record<string, string> = {};
  for (const engine of ENGINES) {
    const url = engine.testUrlVariable ? process.env[engine.testUrlVariable] : undefined;
    if (url) versions[engine.name] = await serverVersion(engine.name, url);
  }
  project.provide("serverVersions", versions);
  const listed = Object.entries(versions).map(([engine, version]) => `${engine} ${version}`);
  if (listed.length > 0) console.log(`engine servers: ${listed.join(", ")}`);
}
