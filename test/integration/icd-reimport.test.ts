import { createPractice, type Practice, type Storage } from "@openpractice/core";
import { sharedMigrations, type KyselyStorage } from "@openpractice/kysely";
import { mysqlProfile } from "@openpractice/mysql";
import { postgresProfile } from "@openpractice/postgres";
import { sqliteProfile } from "@openpractice/sqlite";
import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openEngineStorage, openRawQuery, type RawQuery } from "../support/engines.js";
import { testPracticeKeys } from "../support/practice-keys.js";

/** An order-file line (CMS fixed columns): order number, code, billable flag, short and long description. */
const line = (n: number, code: string, text: string) =>
  `${String(n).padStart(5, "0")} ${code.padEnd(7)} 1 ${text.padEnd(60).slice(0, 60)} ${text}`;
const PROFILES = { sqlite: sqliteProfile, postgres: postgresProfile, mysql: mysqlProfile };
const codeSet = (count: number, word: string) =>
  Array.from({ length: count }, (_, i) =>
    line(i + 1, `Q${String(i).padStart(4, "0")}`, `${word} condition number ${i}`),
  );

// An import commits in batches, yet searches see the previous code set until the new one is whole, on every engine.
for (const engine of availableEngines()) {
  describe(`[${engine}] ICD-10-CM re-import`, () => {
    let storage: Storage;
    let practice: Practice;
    let raw: RawQuery;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const db = await freshDatabase(engine);
      drop = db.drop;
      storage = await openEngineStorage(engine, db.url);
      raw = await openRawQuery(engine, db.url);
      practice = createPractice({ storage, keys: testPracticeKeys() });
    });
    afterAll(async () => {
      await raw.close();
      await storage.close();
      await drop();
    });
    const search = async (q: string) => (await practice.icd.search({ q, size: 5 })).total;
    const rows = async () => Number((await raw.query("select count(*) as n from icd_codes", []))[0]?.n);

    it("serves the previous set while the new one loads in batches, then switches and removes the old rows", async () => {
      await practice.icd.importOrderFile(codeSet(300, "alpha"), 2026);
      expect(await search("alpha")).toBe(300);
      const seen: Array<{ done: number; alpha: number; beta: number }> = [];
      await practice.icd.importOrderFile(codeSet(1600, "beta"), 2026, {
        onProgress: async (done) => {
          // Mid-import (each batch already committed), a search still reads the whole previous set.
          if (done < 1600) seen.push({ done, alpha: await search("alpha"), beta: await search("beta") });
        },
      });
      expect(seen.map((s) => s.done)).toEqual([500, 1000, 1500]);
      for (const s of seen) expect(s).toMatchObject({ alpha: 300, beta: 0 });
      expect(await search("beta")).toBe(1600);
      expect(await search("alpha")).toBe(0);
      expect(await rows()).toBe(1600);
      const [year] = await raw.query("select year, codes from icd_years", []);
      expect(year).toMatchObject({ year: 2026, codes: 1600 });
      // A newer year takes over searches; the older stays stored.
      await practice.icd.importOrderFile(codeSet(10, "gamma"), 2027);
      expect((await practice.icd.search({ q: "gamma" })).year).toBe(2027);
      expect(await rows()).toBe(1610);
    });

    it("migration 025 records the years loaded before it, so their codes stay searchable", async () => {
      const kysely = (storage as KyselyStorage).db;
      const migrator = new Migrator({
        db: kysely,
        provider: { getMigrations: async () => sharedMigrations(PROFILES[engine]) },
        allowUnorderedMigrations: true,
      });
      const undone: string[] = [];
      while (!undone.includes("025-icd-years")) {
        const down = await migrator.migrateDown();
        expect(down.error).toBeUndefined();
        undone.push(...(down.results ?? []).map((m) => m.migrationName));
      }
      // Rows as releases before 025 stored them: under the year itself.
      await sql`delete from icd_words`.execute(kysely);
      await sql`delete from icd_codes`.execute(kysely);
      await sql`insert into icd_codes (year, code, order_number, billable, short_description, long_description, description_length)
        values (2024, 'R51', 1, 1, 'Headache', 'Headache of old', 15)`.execute(kysely);
      await sql`insert into icd_words (year, word, code, description_length) values (2024, 'headache', 'R51', 15)`.execute(
        kysely,
      );
      expect(await (storage as KyselyStorage).migrate()).toEqual([...undone].reverse());
      const [recorded] = await raw.query("select year, storage_key, codes from icd_years", []);
      expect(recorded).toMatchObject({ year: 2024, storage_key: 2024, codes: 1 });
      const found = await practice.icd.search({ q: "headache" });
      expect(found).toMatchObject({ total: 1, year: 2024 });
      expect(found.codes[0]).toMatchObject({ code: "R51", year: 2024 });
    });
  });
}
