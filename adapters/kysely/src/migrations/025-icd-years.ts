import { sql, type Kysely, type Migration } from "kysely";

/**
 * Which rows serve each ICD-10-CM code-set year: icd_years.storage_key names them (year*10 + generation for imports
 * from now on; the year itself for rows loaded before), so an import loads under a new key in small transactions
 * and switches in one. Years already loaded are recorded as they are.
 */
export function icdYearsMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("icd_years")
        .addColumn("year", "integer", (c) => c.primaryKey())
        .addColumn("storage_key", "integer", (c) => c.notNull())
        .addColumn("codes", "integer", (c) => c.notNull())
        .addColumn("updated_at", "varchar(30)", (c) => c.notNull())
        .execute();
      await sql`insert into icd_years (year, storage_key, codes, updated_at)
        select year, year, count(*), ${new Date().toISOString()} from icd_codes group by year`.execute(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("icd_years").execute();
    },
  };
}
