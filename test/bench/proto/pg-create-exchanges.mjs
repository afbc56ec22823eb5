// A registration's statements replayed 10 at a time in alternating 4-second rounds, through each PostgreSQL
// client path, with transactions per second and the CPU per transaction of this process and of the rest of the
// machine (the database server). The statements are captured from a real audited registration. Paths
// (BENCH_VARIANTS, comma-separated; default every one available):
//   two      the adapter's pool, the insert waited for, then the appends with COMMIT (two exchanges)
//   public   the adapter's pool (pg's public pipeline mode): the insert held and written with the appends and COMMIT
//   stock    the adapter on stock pg (?pipelining=false): every statement its own round trip
//   other    another build's adapter (BENCH_OTHER_POSTGRES: the path of its dist/index.js), as `public`
//   pgjs     postgres.js (BENCH_POSTGRES_JS_DIR: a folder with postgres installed) on a reserved connection,
//            BEGIN, the insert, the appends and COMMIT issued together (pipelined, prepared statements on)
//   pgjs-kysely  postgres.js through kysely-postgres-js (in BENCH_POSTGRES_JS_DIR too): Kysely's transaction
// See docs/performance.md ("Patients on PostgreSQL") and docs/adapters.md ("Drivers").
//
//   npm run build && OPENPRACTICE_TEST_REPLICA=0 bash .ci/with-databases.sh \
//     sh -c 'DATABASE_URL=$OPENPRACTICE_TEST_POSTGRES_URL node test/bench/proto/pg-create-exchanges.mjs'
import { readdirSync, readFileSync } from "node:fs";
import { createPractice } from "@openpractice/core";
import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { createPostgresStorage } from "@openpractice/postgres";
import { CompiledQuery, Kysely } from "kysely";
import pg from "pg";

const url = process.env.DATABASE_URL;
if (!url?.startsWith("postgres")) throw new Error("DATABASE_URL must be a postgres:// URL");

// The texts and values of one registration's insert and appends, read off the Parse and Bind messages.
const captured = [];
const capturing = new pg.Pool({ connectionString: url, max: 1 });
capturing.on("connect", (client) => {
  const connection = client.connection;
  const parse = connection.parse.bind(connection);
  const bind = connection.bind.bind(connection);
  let last;
  connection.parse = (message) => {
    last = { text: message.text };
    captured.push(last);
    parse(message);
  };
  connection.bind = (message) => {
    if (last) last.values = message.values;
    bind(message);
  };
});
const capturingStorage = await createPostgresStorage({ pool: capturing, preparedStatements: false });
const practice = createPractice({ storage: capturingStorage, keys: { webhookSecretKey: "0".repeat(64), vapid: null } });
const principal = { organisationId: 7, userId: 1, name: null, scopes: ["write"], clinicIds: [], roles: [] };
const entry = {
  actorUserId: 101,
  actorName: "Front desk",
  clientId: "opc_bench",
  action: "v2CreatePatient",
  resourceType: "patient",
  resourceId: null,
  requestId: "req-1",
  changedFields: ["first_name"],
};
const register = (firstName) =>
  practice.audit.runAudited(7, { ...entry }, () =>
    practice.patients.register(principal, { firstName, lastName: "Exchange", dateOfBirth: "1980-01-01" }),
  );
// A duplicate runs both paths: first the insert ahead (refused at once on this stock pool), then the insert that
// waits for its answer. The replay takes the waiting insert (without a reserved id) and a create's appends.
await register("A");
await register("A");
captured.length = 0;
await register("A");
await register("B");
const insert = captured.find((s) => /insert into "patients"/.test(s.text) && / returning \*/i.test(s.text));
const appends = captured.find((s) => /appended_events/.test(s.text));
if (!insert || !appends) throw new Error("could not capture the registration's statements");
const identityIndex = insert.values.findIndex((v) => typeof v === "string" && /\|exchange\|/.test(v));

let n = 0;
const insertValues = () => insert.values.map((v, i) => (i === identityIndex ? `${v}-${process.pid}-${n++}` : v));
const heldInsertText = SENT_WITH_NEXT_STATEMENT + insert.text.replace(/ returning \*/i, "");
const insertOf = (held) => CompiledQuery.raw(held ? heldInsertText : insert.text, insertValues());
const appendsQuery = CompiledQuery.raw(appends.text, appends.values);
/** A registration's transaction on a Kysely store of the adapter (this build's or another's). */
const onStorage = (storage, held) => () =>
  storage.db.transaction().execute(async (trx) => {
    await trx.executeQuery(insertOf(held));
    await trx.executeQuery(appendsQuery);
  });

const variants = new Map();
const closers = [];
const wanted = (name) => !process.env.BENCH_VARIANTS || process.env.BENCH_VARIANTS.split(",").includes(name);
const ownStorage = await createPostgresStorage({ url, maxConnections: 10 });
closers.push(() => ownStorage.close());
if (wanted("two")) variants.set("two", onStorage(ownStorage, false));
if (wanted("public")) variants.set("public", onStorage(ownStorage, true));
if (wanted("stock")) {
  const stock = await createPostgresStorage({ url, maxConnections: 10, pipelining: false });
  closers.push(() => stock.close());
  variants.set("stock", onStorage(stock, true));
}
if (process.env.BENCH_OTHER_POSTGRES && wanted("other")) {
  const other = await (await import(process.env.BENCH_OTHER_POSTGRES)).createPostgresStorage({
    url,
    maxConnections: 10,
  });
  closers.push(() => other.close());
  variants.set("other", onStorage(other, true));
}
const pgjsDir = process.env.BENCH_POSTGRES_JS_DIR;
if (pgjsDir) {
  const { createRequire } = await import("node:module");
  const from = createRequire(`${pgjsDir}/package.json`);
  const postgres = (await import(from.resolve("postgres"))).default;
  const version = (name) => JSON.parse(readFileSync(`${pgjsDir}/node_modules/${name}/package.json`, "utf8")).version;
  console.log(`postgres.js ${version("postgres")}, kysely-postgres-js ${version("kysely-postgres-js")}`);
  // Kysely's placeholders are pg's ($1 …), which postgres.js takes as they are.
  const pgjs = postgres(url, { max: 10, prepare: true, onnotice: () => undefined });
  closers.push(() => pgjs.end());
  if (wanted("pgjs"))
    variants.set("pgjs", async () => {
      const reserved = await pgjs.reserve();
      try {
        await Promise.all([
          reserved.unsafe("begin"),
          reserved.unsafe(insert.text.replace(/ returning \*/i, ""), insertValues()),
          reserved.unsafe(appends.text, appends.values),
          reserved.unsafe("commit"),
        ]);
      } finally {
        reserved.release();
      }
    });
  if (wanted("pgjs-kysely")) {
    const { PostgresJSDialect } = await import(from.resolve("kysely-postgres-js"));
    const db = new Kysely({ dialect: new PostgresJSDialect({ postgres: postgres(url, { max: 10, prepare: true }) }) });
    closers.push(() => db.destroy());
    variants.set("pgjs-kysely", onStorage({ db }, false));
  }
}

const ticks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const machineTicks = () => {
  let total = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      total += ticks(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
};
const TICK_MS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

try {
  for (const [, create] of variants) await create(); // warm: names parsed, ids reserved
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, create] of variants) {
      const end = performance.now() + 4000;
      let done = 0;
      const own0 = ticks(process.pid);
      const all0 = machineTicks();
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (performance.now() < end) {
            await create();
            done++;
          }
        }),
      );
      const own = (ticks(process.pid) - own0) * TICK_MS;
      const rest = (machineTicks() - all0) * TICK_MS - own;
      console.log(
        `${name}: ${(done / 4).toFixed(0)} transactions/s; CPU per transaction, ms: this process ${(own / done).toFixed(3)}, the rest ${(rest / done).toFixed(3)}`,
      );
    }
  }
} finally {
  for (const close of closers) await close();
  await capturingStorage.close();
}
