import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openEngineStorage } from "../support/engines.js";
import type { Storage } from "@openpractice/core";

// The PostgreSQL migration 013 raises the statistics target of patients.search_text to 1,000, because
// the planner estimates `LIKE '%term%'` from the histogram, and with the default 100 entries it may be
// off by orders of magnitude; a search then walks the wrong index (docs/performance.md, "Plans that
// depend on the ANALYZE sample"). 30,000 patients: ANALYZE samples the whole table at either target, so
// the estimates here are the same on every run.
const engines = availableEngines();
const PATIENTS = 30_000;
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
];
const LAST = [
  "Nguyen",
  "Patel",
  "Garcia",
  "Kowalski",
  "Johnson",
  "Obrien",
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
];
// Terms matching about 2% of the patients: one first or last name in 50.
const COMMON = ["kowal", "priya", "mensah", "olivia", "wagner"];

describe.runIf(engines.includes("postgres"))("[postgres] search estimates (statistics target of search_text)", () => {
  let db: { url: string; drop: () => Promise<void> };
  let storage: Storage;
  let client: pg.Client;

  /** The planner's row estimate for the bounded count of one term, and the true number of matches. */
  async function estimate(term: string) {
    const where = `organisation_id = 1 and status = 'active' and search_text like $1`;
    const plan = (
      await client.query(
        `explain (format json) select count(*) from (select 1 from patients where ${where} limit 1001) m`,
        [`%${term}%`],
      )
    ).rows[0]["QUERY PLAN"][0].Plan;
    const scan = plan.Plans[0].Plans[0];
    const actual = Number(
      (await client.query(`select count(*) as n from patients where ${where}`, [`%${term}%`])).rows[0].n,
    );
    return { estimated: scan["Plan Rows"] as number, actual };
  }

  beforeAll(async () => {
    db = await freshDatabase("postgres");
    // Opening the adapter applies every migration, 013 included.
    storage = await openEngineStorage("postgres", db.url);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const now = "2026-01-01T00:00:00.000Z";
    await client.query(
      `insert into organisations (id, name, plan, is_active, created_at, updated_at) values (1, 'Estimates', 'enterprise', 1, $1, $1)`,
      [now],
    );
    // Names drawn at random with a fixed seed (setseed): the same rows on every run, and no regular
    // pattern for the histogram's bucket bounds to line up with. An email unique to the row.
    await client.query("select setseed(0.42)");
    await client.query(
      `insert into patients (organisation_id, first_name, last_name, date_of_birth, sex, email, status, identity_key, search_text, first_name_sort, last_name_sort, created_at, updated_at)
       select 1, f, l, '1980-01-01', 'FEMALE', e, 'active', lower(f || '|' || l || '|' || i), lower(f || ' ' || l || ' ' || e), lower(f), lower(l), $2, $2
       from (select i, f, l, lower(f || '.' || l) || i || '@example.org' as e
             from (select i, ($1::text[])[1 + floor(random() * 50)::int] as f, ($3::text[])[1 + floor(random() * 50)::int] as l
                   from generate_series(0, ${PATIENTS - 1}) as i) as r) as g`,
      [FIRST, now, LAST],
    );
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await storage?.close();
    await db?.drop();
  });

  it("the migration sets the target to 1,000", async () => {
    const { rows } = await client.query(
      `select attstattarget from pg_attribute where attrelid = 'patients'::regclass and attname = 'search_text'`,
    );
    expect(rows[0].attstattarget).toBe(1000);
  });

  it("with it, a common term is estimated within a factor of 2", async () => {
    await client.query("analyze patients");
    for (const term of COMMON) {
      const { estimated, actual } = await estimate(term);
      expect(actual / PATIENTS, term).toBeGreaterThan(0.015);
      expect(actual / PATIENTS, term).toBeLessThan(0.025);
      expect(estimated / actual, `${term}: estimated ${estimated}, actual ${actual}`).toBeGreaterThan(0.5);
      expect(estimated / actual, `${term}: estimated ${estimated}, actual ${actual}`).toBeLessThan(2);
    }
  });

  it("without it (the default target), the same terms are estimated far off", async () => {
    await client.query("alter table patients alter column search_text set statistics -1");
    await client.query("analyze patients");
    try {
      const ratios = await Promise.all(
        COMMON.map(async (term) => ((r) => r.estimated / r.actual)(await estimate(term))),
      );
      // The control: the setting is what makes the estimates hold, not the data.
      expect(
        ratios.some((r) => r < 0.5 || r > 2),
        `ratios ${ratios.map((r) => r.toFixed(2)).join(", ")}`,
      ).toBe(true);
    } finally {
      await client.query("alter table patients alter column search_text set statistics 1000");
      await client.query("analyze patients");
    }
  });
});
