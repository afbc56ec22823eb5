import { afterEach, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";
import { startServe, stopServe, type ServeProcess } from "./cli-process.js";

// The driver settings DATABASE_URL chose are in the start-up log ("openpractice listening"): an operator sees
// whether the MySQL pool takes several statements in one text, and whether PostgreSQL pipelines.
const SECRET = "driver-settings-test-secret-0123456789";

let serve: ServeProcess | undefined;
let temp: ReturnType<typeof makeTempDir> | undefined;
let database: { url: string; drop: () => Promise<void> } | undefined;
afterEach(async () => {
  await stopServe(serve);
  serve = undefined;
  temp?.remove();
  temp = undefined;
  await database?.drop();
  database = undefined;
});

/** The "openpractice listening" line of `serve` on a fresh database, with `query` after its URL. */
async function listeningLine(engine: "postgres" | "mysql", query: string) {
  temp = makeTempDir();
  database = await freshDatabase(engine, { migrated: true });
  serve = await startServe(
    { PORT: "0", DATABASE_URL: `${database.url}${query}`, OPENPRACTICE_JWT_SECRET: SECRET, OPENPRACTICE_WORKERS: "1" },
    temp.dir,
  );
  const line = serve.logs().find((l) => l.msg === "openpractice listening");
  await stopServe(serve);
  await database.drop();
  database = undefined;
  return line;
}

describe("driver settings in the start-up log", () => {
  it.runIf(availableEngines().includes("mysql"))("[mysql] statement batching off unless the URL asks", async () => {
    expect(await listeningLine("mysql", "")).toMatchObject({ engine: "mysql", statement_batching: false });
    expect(await listeningLine("mysql", "?multipleStatements=true")).toMatchObject({ statement_batching: true });
  });

  it.runIf(availableEngines().includes("postgres"))("[postgres] pipelining and prepared statements", async () => {
    expect(await listeningLine("postgres", "")).toMatchObject({
      engine: "postgres",
      pipelining: true,
      prepared_statements: true,
    });
    expect(await listeningLine("postgres", "?pipelining=false")).toMatchObject({
      pipelining: false,
      prepared_statements: true,
    });
  });
});
