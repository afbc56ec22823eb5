// A registration's statements replayed through the PostgreSQL adapter's pool, 10 at a time, in two exchanges
// (the patient insert waited for, then the appends with COMMIT) and in one (the insert held and sent with
// COMMIT, as the insert ahead does), alternating 4-second rounds: transactions per second and the CPU per
// transaction of this process and of the rest of the machine (the database server). The statements are captured
// from a real audited registration. See docs/performance.md ("Patients on PostgreSQL").
//
//   npm run build && OPENPRACTICE_TEST_REPLICA=0 bash .ci/with-databases.sh \
//     sh -c 'DATABASE_URL=$OPENPRACTICE_TEST_POSTGRES_URL node test/bench/proto/pg-create-exchanges.mjs'
import { readdirSync, readFileSync } from "node:fs";
import { createPractice } from "@openpractice/core";
import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { createPostgresStorage } from "@openpractice/postgres";
import { CompiledQuery } from "kysely";
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
// A duplicate runs both paths: first the insert ahead with its appends (refused at COMMIT), then the insert that
// waits for its answer. The replay takes the waiting insert (without a reserved id) and the create's appends.
await register("A");
await register("A");
captured.length = 0;
await register("A");
const insert = captured.find((s) => /insert into "patients"/.test(s.text) && / returning \*/i.test(s.text));
const appends = captured.find((s) => /appended_events/.test(s.text));
if (!insert || !appends) throw new Error("could not capture the registration's statements");
const identityIndex = insert.values.findIndex((v) => typeof v === "string" && /\|exchange\|/.test(v));

const storage = await createPostgresStorage({ url, maxConnections: 10 });
let n = 0;
const insertOf = (held) =>
  CompiledQuery.raw(
    held ? SENT_WITH_NEXT_STATEMENT + insert.text.replace(/ returning \*/i, "") : insert.text,
    insert.values.map((v, i) => (i === identityIndex ? `${v}-${process.pid}-${n++}` : v)),
  );
const appendsQuery = CompiledQuery.raw(appends.text, appends.values);
const create = (held) =>
  storage.db.transaction().execute(async (trx) => {
    await trx.executeQuery(insertOf(held));
    await trx.executeQuery(appendsQuery);
  });

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

try {
  for (const mode of ["two", "one", "two", "one", "two", "one"]) {
    const held = mode === "one";
    const end = performance.now() + 4000;
    let done = 0;
    const own0 = ticks(process.pid);
    const all0 = machineTicks();
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (performance.now() < end) {
          await create(held);
          done++;
        }
      }),
    );
    const own = (ticks(process.pid) - own0) * TICK_MS;
    const rest = (machineTicks() - all0) * TICK_MS - own;
    console.log(
      `${mode} exchange(s): ${(done / 4).toFixed(0)} transactions/s; CPU per transaction, ms: this process ${(own / done).toFixed(3)}, the rest ${(rest / done).toFixed(3)}`,
    );
  }
} finally {
  await storage.close();
  await capturingStorage.close();
}
