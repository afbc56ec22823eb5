// The vendor-scale fixture: many organisations in one PostgreSQL database, with
// skewed sizes (a few organisations of 2–4% of all patients each, the rest
// log-normal), patients registered over five years in one global time order so
// every tenant's rows are spread over the whole table, as in a shared database.
//
//   DATABASE_URL=postgres://… node test/bench/tenant-fixture.mjs
//   (MySQL / MariaDB: tenant-fixture-mysql.mjs)
//
// Env: SCALE_ORGANISATIONS (100), SCALE_PATIENTS (1000000), SCALE_SEED (20261126),
// SCALE_LARGE (organisations of 2–4% each; default 1 per 200 organisations, at least 1).
// The issue's shape is SCALE_ORGANISATIONS=1000 SCALE_PATIENTS=10000000.
//
// Every row is what the application stores: the core's patientFromDraft and
// toPatientRecord derive identity_key, search_text and the sort columns, the
// adapter's patientToRow names the columns (one definition, the application's).
// The rows go in set-based: 10,000 per INSERT … SELECT FROM unnest(arrays), with
// the table's secondary indexes dropped during the load and recreated from the
// definitions PostgreSQL itself holds (pg_indexes), so the indexes are exactly
// those the migrations made; the GIN and the B-tree indexes are built at the same
// time on two connections. The triggers that keep patient_counts stay on: they
// run once per statement. The database is named after the shape
// (opscale_<organisations>_<patients>_<seed>) and reused when complete.
import { createPractice, patientFromDraft, toPatientRecord } from "@openpractice/core";
import { patientToRow } from "@openpractice/kysely";
import pg from "pg";
import { asciiFold, prng } from "./fixture.mjs";
import { engineOf, serverStorage, withConnection, withDatabase } from "./fixture-server.mjs";
import {
  COMMON_LAST_NAMES,
  FIRST_NAMES,
  RARE_LAST_NAMES,
  RARE_LAST_NAME_SHARE,
  drawIndex,
  rareLastName,
  zipfCumulative,
} from "./tenant-names.mjs";

const DAY_MS = 86_400_000;
const BATCH = 10_000;

/** The shape from the environment (defaults: the quick 100 × 1,000,000). */
export function shapeFromEnv(env = process.env) {
  const int = (name, fallback) => {
    const v = env[name];
    if (v === undefined || v === "") return fallback;
    const n = Number(v.replace(/_/g, ""));
    if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive integer (got ${v})`);
    return n;
  };
  const organisations = int("SCALE_ORGANISATIONS", 100);
  const patients = int("SCALE_PATIENTS", 1_000_000);
  const large = int("SCALE_LARGE", Math.max(1, Math.round(organisations / 200)));
  if (large >= organisations) throw new Error("SCALE_LARGE must be below SCALE_ORGANISATIONS");
  return { organisations, patients, large, seed: int("SCALE_SEED", 20261126) };
}

/**
 * Patients per organisation (index 0 is organisation 1): `large` organisations
 * of 2–4% of all patients, the others log-normal (σ 1.1, so the median is about
 * half the mean) with a floor of a tenth of their mean; the sizes sum to `patients`.
 */
export function organisationSizes({ organisations, patients, large, seed }) {
  const rnd = prng(seed ^ 0x5eed);
  const sizes = new Array(organisations).fill(0);
  for (let i = 0; i < large; i++) sizes[i] = Math.round(patients * (0.02 + 0.02 * rnd()));
  const rest = patients - sizes.slice(0, large).reduce((a, b) => a + b, 0);
  const others = organisations - large;
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const raw = Array.from({ length: others }, () => Math.exp(1.1 * gauss()));
  const scale = rest / raw.reduce((a, b) => a + b, 0);
  const floor = Math.max(1, Math.round(rest / others / 10));
  for (let i = 0; i < others; i++) sizes[large + i] = Math.max(floor, Math.round(raw[i] * scale));
  // Rounding and the floor move the sum: take the difference from (or give it to) the biggest small organisation.
  const smallSum = sizes.slice(large).reduce((a, b) => a + b, 0);
  let biggest = large;
  for (let i = large; i < organisations; i++) if (sizes[i] > sizes[biggest]) biggest = i;
  sizes[biggest] += rest - smallSum;
  if (sizes[biggest] < floor) throw new Error("too few patients for this many organisations");
  return sizes;
}

const FIRST_CUMULATIVE = zipfCumulative(FIRST_NAMES.length);
const LAST_CUMULATIVE = zipfCumulative(COMMON_LAST_NAMES.length);
const SEXES = ["FEMALE", "MALE", "OTHER", "UNDEFINED"];
const DOMAINS = ["example.org", "example.com", "example.net", "mail.example"];

/** A patient as the front desk would register it, drawn with `rnd`. */
export function tenantDraft(rnd) {
  const first = FIRST_NAMES[drawIndex(FIRST_CUMULATIVE, rnd())];
  const last =
    rnd() < RARE_LAST_NAME_SHARE
      ? rareLastName(Math.floor(rnd() * RARE_LAST_NAMES))
      : COMMON_LAST_NAMES[drawIndex(LAST_CUMULATIVE, rnd())];
  const digits = (n) => Array.from({ length: n }, () => Math.floor(rnd() * 10)).join("");
  const draft = {
    firstName: first,
    lastName: last,
    dateOfBirth: new Date(Date.UTC(1940, 0, 1) + Math.floor(rnd() * 30_600) * DAY_MS).toISOString().slice(0, 10),
    sex: SEXES[Math.floor(rnd() * SEXES.length)],
    address: { line1: `${1 + Math.floor(rnd() * 9999)} Main Street`, city: "Springfield", state: "IL", country: "US" },
    status: rnd() < 0.05 ? "inactive" : "active",
  };
  if (rnd() < 0.3) draft.middleName = FIRST_NAMES[drawIndex(FIRST_CUMULATIVE, rnd())];
  if (rnd() < 0.9) draft.phone = `(${2 + Math.floor(rnd() * 8)}${digits(2)}) ${digits(3)}-${digits(4)}`;
  if (rnd() < 0.85)
    draft.email = `${asciiFold(first)}.${asciiFold(last)}${1 + Math.floor(rnd() * 999)}@${DOMAINS[Math.floor(rnd() * 4)]}`;
  return draft;
}

/** The stored row of `draft` in organisation `organisationId`, registered at `at`: the application's own derivation. */
export const tenantRow = (draft, organisationId, at) =>
  patientToRow(toPatientRecord(patientFromDraft(draft, organisationId, at)));

// FNV-1a over a string, as a float: a compact key for the duplicate check (a false clash only draws again).
function hashKey(s) {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return (h1 >>> 0) * 2 ** 21 + ((h2 >>> 0) & 0x1fffff);
}

/**
 * Every patient row of the shape, in registration order: organisations
 * interleaved at random (a shuffled list of organisation ids), created_at
 * spread evenly over the five years before 2026-11-01.
 */
export function* tenantRows(shape, sizes = organisationSizes(shape)) {
  const rnd = prng(shape.seed);
  const owners = new Int32Array(shape.patients);
  let k = 0;
  sizes.forEach((n, i) => {
    owners.fill(i + 1, k, k + n);
    k += n;
  });
  for (let i = owners.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    const t = owners[i];
    owners[i] = owners[j];
    owners[j] = t;
  }
  const end = Date.UTC(2026, 10, 1);
  const start = end - 5 * 365 * DAY_MS;
  const seen = new Set();
  for (let i = 0; i < owners.length; i++) {
    const org = owners[i];
    const at = new Date(start + Math.floor(((end - start) * i) / owners.length));
    let row;
    let key;
    // The same folded name and birth date twice in one organisation is a duplicate the domain refuses: draw again.
    do {
      row = tenantRow(tenantDraft(rnd), org, at);
      key = hashKey(`${org}|${row.identity_key}`);
    } while (seen.has(key));
    seen.add(key);
    yield row;
  }
}

/** The fixture database's name: the shape, so a complete copy is found and reused. */
export const databaseName = (s) => `opscale_${s.organisations}_${s.patients}_${s.seed}`;

/** Each load phase's seconds, logged as it ends and kept in `phases` for the caller. */
export function phaseLog(log) {
  const phases = {};
  const phase = (label, t0) => {
    phases[label] = (performance.now() - t0) / 1000;
    log(`  ${label}: ${phases[label].toFixed(1)} s`);
  };
  return { phases, phase };
}

async function connect(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The secondary indexes and unique constraints of `table`, as PostgreSQL holds them (everything but the primary key). */
async function secondaryIndexes(client, table) {
  const constraints = (
    await client.query(
      `select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
        where conrelid = $1::regclass and contype = 'u'`,
      [table],
    )
  ).rows;
  const indexes = (
    await client.query(
      `select i.indexname as name, i.indexdef as def from pg_indexes i
        where i.tablename = $1 and i.schemaname = current_schema()
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname and c.contype in ('p', 'u'))`,
      [table],
    )
  ).rows;
  return { constraints, indexes };
}

/**
 * Loads the shape into its own database on the server of `baseUrl` (made and
 * migrated by the real adapter) unless a complete copy is there already.
 * Resolves to { url, sizes, reused, seconds, phases }.
 */
export async function buildTenantFixture(baseUrl, shape, log = console.log) {
  const name = databaseName(shape);
  const url = withDatabase(baseUrl, name);
  const sizes = organisationSizes(shape);
  const admin = await connect(baseUrl);
  try {
    const exists = (await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount > 0;
    if (exists) {
      const client = await connect(url);
      try {
        const done = await client.query("select 1 from pg_tables where tablename = 'opscale_fixture'");
        if (done.rowCount > 0) return { url, sizes, reused: true, seconds: 0, phases: {} };
      } finally {
        await client.end();
      }
      await admin.query(`drop database ${name}`);
    }
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }

  const started = performance.now();
  const { phases, phase } = phaseLog(log);
  let t0 = performance.now();
  await (await serverStorage(url, 1)).close();
  phase("migrate", t0);

  const client = await connect(url);
  const writer = await connect(url);
  try {
    const now = new Date().toISOString();
    await client.query(
      `insert into organisations (id, name, plan, is_active, created_at, updated_at)
       select g, 'Scale Clinic ' || g, 'enterprise', 1, $2, $2 from generate_series(1, $1::int) g`,
      [shape.organisations, now],
    );
    const { constraints, indexes } = await secondaryIndexes(client, "patients");
    for (const c of constraints) await client.query(`alter table patients drop constraint ${c.name}`);
    for (const i of indexes) await client.query(`drop index ${i.name}`);

    // Column types for the unnest arrays, from the table itself.
    const types = new Map(
      (
        await client.query(
          "select column_name, udt_name from information_schema.columns where table_name = 'patients' and table_schema = current_schema()",
        )
      ).rows.map((r) => [r.column_name, r.udt_name]),
    );
    t0 = performance.now();
    let columns;
    let insert;
    let batch = [];
    let pending = Promise.resolve();
    let loaded = 0;
    const flush = async () => {
      const arrays = columns.map((c) => batch.map((row) => row[c] ?? null));
      batch = [];
      await pending;
      // One statement in flight while the next batch is generated: PostgreSQL and this process each use a core.
      pending = writer.query(insert, arrays).then(() => {
        loaded += arrays[0].length;
        if (loaded % 1_000_000 < BATCH) log(`  ${loaded} rows`);
      });
    };
    for (const row of tenantRows(shape, sizes)) {
      if (!columns) {
        columns = Object.keys(row);
        insert = `insert into patients (${columns.join(", ")}) select * from unnest(${columns
          .map((c, i) => `$${i + 1}::${types.get(c)}[]`)
          .join(", ")})`;
      }
      batch.push(row);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length > 0) await flush();
    await pending;
    phase("rows", t0);

    t0 = performance.now();
    // Two connections, one core each: the GIN indexes (the slow ones) on one, the unique key and B-trees on the
    // other. B-tree builds sort in memory up to maintenance_work_mem; 1 GB fits this fixture's largest.
    const timed = async (conn, label, statement) => {
      const t = performance.now();
      await conn.query(statement);
      log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    };
    await client.query("set maintenance_work_mem = '1GB'");
    await writer.query("set maintenance_work_mem = '1GB'");
    // ADD CONSTRAINT locks the table against CREATE INDEX, so the unique key goes first, alone.
    for (const c of constraints)
      await timed(client, `constraint ${c.name}`, `alter table patients add constraint ${c.name} ${c.def}`);
    const gin = indexes.filter((i) => /using gin/i.test(i.def));
    const btrees = indexes.filter((i) => !gin.includes(i));
    const buildAll = async (conn, list) => {
      for (const i of list) await timed(conn, `index ${i.name}`, i.def);
    };
    await Promise.all([buildAll(client, btrees), buildAll(writer, gin)]);
    phase("indexes", t0);
    t0 = performance.now();
    // VACUUM sets the visibility map (index-only scans) as a settled database has it; ANALYZE the statistics.
    await client.query("vacuum analyze patients");
    await client.query("vacuum analyze organisations");
    phase("vacuum analyze", t0);
    await client.query(
      `create table opscale_fixture as select $1::int as organisations, $2::int as patients, $3::int as seed, now() as loaded_at`,
      [shape.organisations, shape.patients, shape.seed],
    );
  } finally {
    await client.end();
    await writer.end();
  }
  return { url, sizes, reused: false, seconds: (performance.now() - started) / 1000, phases };
}

/** The command-line run of a fixture script: the shape from the environment, loaded (or reused) and verified. */
export async function buildAndVerify(build, url) {
  const shape = shapeFromEnv();
  console.log(`shape: ${JSON.stringify(shape)}`);
  const fixture = await build(url, shape);
  console.log(
    `${fixture.reused ? "reused" : `loaded in ${fixture.seconds.toFixed(1)} s`}: ${fixture.url.replace(/\/\/[^@]*@/, "//")}`,
  );
  const verified = await verifyTenantFixture(fixture.url, shape);
  console.log(
    `verified: ${verified.registered} drafts registered through PatientService match the generator; ${verified.rechecked} stored rows hold the derived columns the application computes`,
  );
}

/**
 * Checks the loaded rows against the application's own write path: `sample`
 * drafts registered through PatientService.register in a scratch organisation
 * must be stored exactly as the generator derives them, and `sample` stored
 * rows must hold the derived columns the application computes from their own
 * fields. Throws on the first difference; resolves to the numbers checked.
 * PostgreSQL or MySQL, by the URL.
 */
export async function verifyTenantFixture(url, shape, sample = 1000) {
  const postgres = engineOf(url) === "postgres";
  const p = (i) => (postgres ? `$${i}` : "?");
  const storage = await serverStorage(url, 2);
  try {
    return await withConnection(url, async (q) => {
      const scratch = shape.organisations + 1;
      const now = new Date().toISOString();
      await q(
        `insert ${postgres ? "" : "ignore "}into organisations (id, name, plan, is_active, created_at, updated_at)
         values (${p(1)}, 'Verification', 'enterprise', 1, ${p(2)}, ${p(2)})${postgres ? " on conflict (id) do nothing" : ""}`,
        postgres ? [scratch, now] : [scratch, now, now],
      );
      const practice = createPractice({
        storage,
        planLimits: { enterprise: 1e12 },
        keys: { webhookSecretKey: "0".repeat(64), vapid: null },
      });
      const principal = { organisationId: scratch, userId: 1, name: null, scopes: ["write"], clinicIds: [], roles: [] };
      const rnd = prng(shape.seed ^ 0xc0ffee);
      const derived = ["identity_key", "search_text", "first_name_sort", "last_name_sort"];
      let registered = 0;
      for (let i = 0; i < sample; i++) {
        const draft = tenantDraft(rnd);
        const result = await practice.patients.register(principal, draft);
        if (!result.created) continue;
        registered++;
        const [stored] = await q(`select * from patients where id = ${p(1)}`, [result.patient.id]);
        const generated = tenantRow(draft, scratch, new Date(result.patient.createdAt));
        for (const [column, value] of Object.entries(generated)) {
          const got = stored[column] instanceof Date ? stored[column].toISOString() : stored[column];
          const want = column.endsWith("_at") ? new Date(value).toISOString() : (value ?? null);
          if (String(got) !== String(want))
            throw new Error(`fixture differs from PatientService.register in ${column}: ${want} vs ${got}`);
        }
      }
      for (const table of ["outbox", "audit_events", "patients"])
        await q(`delete from ${table} where organisation_id = ${p(1)}`, [scratch]);

      // Every 997th row from a fixed offset: spread over the whole table and every organisation, on both engines.
      const rows = await q(`select * from patients where mod(id, 997) = 7 order by id limit ${p(1)}`, [sample]);
      for (const row of rows) {
        const draft = {
          firstName: row.first_name,
          middleName: row.middle_name ?? undefined,
          lastName: row.last_name,
          dateOfBirth: row.date_of_birth,
          phone: row.phone ?? undefined,
          email: row.email ?? undefined,
        };
        const again = tenantRow(draft, Number(row.organisation_id), new Date());
        for (const column of derived)
          if (again[column] !== row[column])
            throw new Error(`row ${row.id}: ${column} is ${row[column]}, the application derives ${again[column]}`);
      }
      return { registered, rechecked: rows.length };
    });
  } finally {
    await storage.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (engineOf(process.env.DATABASE_URL || "sqlite:") !== "postgres")
    throw new Error("DATABASE_URL must be a postgres:// URL (MySQL and MariaDB: tenant-fixture-mysql.mjs)");
  await buildAndVerify(buildTenantFixture, process.env.DATABASE_URL);
}
