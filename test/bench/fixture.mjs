// Builds the benchmark database: organisation 1 on the enterprise plan and N
// patients whose rows are exactly what the domain would store: the core's own
// patientFromDraft / toPatientRecord derive the columns, the adapter's
// patientToRow names them.
// SQLite: the rows go in through better-sqlite3 in one transaction; PostgreSQL and
// MariaDB: fixture-server.mjs. Registering 100,000 patients through the API would
// take minutes and measure nothing we report.
import { assertValidPatientDraft, patientFromDraft, toPatientRecord } from "@openpractice/core";
import { patientToRow } from "@openpractice/kysely";
import { createSqliteStorage } from "@openpractice/sqlite";
import BetterSqlite3 from "better-sqlite3";

export const BENCH_ORGANISATION_ID = 1;

// Invented names; a few carry accents so search exercises the folding.
const FIRST = [
  "Ava",
  "Liam",
  "Noah",
  "Emma",
  "Olivia",
  "Ethan",
  "Sophia",
  "Mason",
  "Isabella",
  "Lucas",
  "Mia",
  "Amir",
  "Chloe",
  "Mateo",
  "Priya",
  "Jonah",
  "Leah",
  "Omar",
  "Grace",
  "Kenji",
  "Rosa",
  "Felix",
  "Nadia",
  "Theo",
  "Zoe",
  "Hannah",
  "Jack",
  "Aisha",
  "Diego",
  "Elena",
  "Farah",
  "Gabriel",
  "Ines",
  "Jasper",
  "Kofi",
  "Lena",
  "Marco",
  "Nora",
  "Oscar",
  "Paula",
  "Quinn",
  "Rafael",
  "Sara",
  "Tomas",
  "Uma",
  "Victor",
  "Wen",
  "Yusuf",
  "Zara",
  "Anders",
  "Bea",
  "Chidi",
  "Dana",
  "Emil",
  "Freya",
  "Goran",
  "Hugo",
  "Ingrid",
  "José",
  "Renée",
];
const LAST = [
  "Nguyen",
  "Patel",
  "Garcia",
  "Kowalski",
  "Johnson",
  "O'Brien",
  "Haddad",
  "Lindqvist",
  "Mensah",
  "Rossi",
  "Chen",
  "Dubois",
  "Silva",
  "Novak",
  "Fischer",
  "Moreau",
  "Tanaka",
  "Adeyemi",
  "Larsen",
  "Costa",
  "Walsh",
  "Ibrahim",
  "Morales",
  "Schmidt",
  "Kim",
  "Anderson",
  "Becker",
  "Carter",
  "Dalton",
  "Evans",
  "Ferreira",
  "Gallagher",
  "Hansen",
  "Ivanova",
  "Jensen",
  "Kaur",
  "Lopez",
  "Murphy",
  "Nakamura",
  "Okafor",
  "Petrov",
  "Quintero",
  "Reyes",
  "Santos",
  "Thompson",
  "Usman",
  "Vargas",
  "Wagner",
  "Xu",
  "Yilmaz",
  "Zhang",
  "Andersson",
  "Brennan",
  "Castillo",
  "Dimitrov",
  "Eriksen",
  "Fontaine",
  "Müller",
  "Núñez",
  "Søndergaard",
];
const CITIES = [
  ["Springfield", "IL", "62701"],
  ["Madison", "WI", "53703"],
  ["Peoria", "IL", "61602"],
  ["Rockford", "IL", "61101"],
  ["Duluth", "MN", "55802"],
  ["Dayton", "OH", "45402"],
];
const SEXES = ["FEMALE", "MALE", "OTHER", "UNDEFINED"];
const DAY_MS = 86_400_000;

/** Small deterministic PRNG (mulberry32): the same N gives the same data on every run. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A name as ASCII letters only, lower case (for invented email addresses). */
export const asciiFold = (s) =>
  s
    .normalize("NFKD")
    .replace(/\p{Diacritic}/gu, "")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();

/** The i-th patient as an API caller would register it. */
function draftFor(i, rnd) {
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const firstName = pick(FIRST);
  const lastName = pick(LAST);
  const [city, state, postalCode] = pick(CITIES);
  const dob = new Date(Date.UTC(1940, 0, 1) + Math.floor(rnd() * 29_000) * DAY_MS).toISOString().slice(0, 10);
  const d = () => Math.floor(rnd() * 10);
  return {
    firstName,
    lastName,
    dateOfBirth: dob,
    sex: pick(SEXES),
    phone: `(555) ${d()}${d()}${d()}-${d()}${d()}${d()}${d()}`,
    email: `${asciiFold(firstName)}.${asciiFold(lastName)}${i}@example.org`,
    address: { line1: `${100 + (i % 9900)} Main Street`, city, state, postalCode, country: "US" },
    status: rnd() < 0.05 ? "inactive" : "active",
  };
}

/** The organisation row: organisation 1 on the enterprise plan. */
export function organisationRow(now = new Date().toISOString()) {
  return {
    id: BENCH_ORGANISATION_ID,
    name: "Benchmark Therapy Group",
    plan: "enterprise",
    is_active: 1,
    created_at: now,
    updated_at: now,
  };
}

/**
 * The `count` patient rows of organisation 1, registered over the five years
 * before 2026-11-01 in id order, as `patientToRow` names their columns. Every
 * engine's fixture is built from these, so every engine holds the same data.
 */
export function* fixtureRows(count) {
  const rnd = prng(20261122);
  const today = new Date().toISOString().slice(0, 10);
  const end = Date.UTC(2026, 10, 1);
  const start = end - 5 * 365 * DAY_MS;
  const seen = new Set();
  for (let i = 0; i < count; i++) {
    let draft = draftFor(i, rnd);
    let record = toPatientRecord(
      patientFromDraft(draft, BENCH_ORGANISATION_ID, new Date(start + Math.floor(((end - start) * i) / count))),
    );
    // Same name and birth date is a duplicate registration the domain refuses; draw again.
    while (seen.has(record.identityKey)) {
      draft = draftFor(i, rnd);
      record = toPatientRecord(patientFromDraft(draft, BENCH_ORGANISATION_ID, record.createdAt));
    }
    assertValidPatientDraft(draft, today);
    seen.add(record.identityKey);
    yield patientToRow(record);
  }
}

/** Creates the SQLite database `filename` (migrated by the real adapter) holding organisation 1 and `count` patients. */
export async function buildFixture(filename, count) {
  const storage = await createSqliteStorage({ filename });
  await storage.close();

  const db = new BetterSqlite3(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const org = organisationRow();
  db.prepare(
    `INSERT INTO organisations (${Object.keys(org).join(", ")}) VALUES (${Object.keys(org)
      .map((k) => `@${k}`)
      .join(", ")})`,
  ).run(org);
  let insert;
  db.transaction(() => {
    for (const row of fixtureRows(count)) {
      insert ??= db.prepare(
        `INSERT INTO patients (${Object.keys(row).join(", ")}) VALUES (${Object.keys(row)
          .map((k) => `@${k}`)
          .join(", ")})`,
      );
      insert.run(row);
    }
  })();
  // Fold the WAL into the main file so a plain file copy is the whole database.
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}
