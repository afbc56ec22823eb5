import type { Kysely, Migration } from "kysely";

/** ICD-10-CM code sets by year, and the word index that finds codes by words of their description. */
export function icdMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("icd_codes")
        .addColumn("year", "integer", (c) => c.notNull())
        .addColumn("code", "varchar(8)", (c) => c.notNull())
        .addColumn("order_number", "integer", (c) => c.notNull())
        .addColumn("billable", "integer", (c) => c.notNull())
        .addColumn("short_description", "varchar(100)", (c) => c.notNull())
        .addColumn("long_description", "varchar(400)", (c) => c.notNull())
        .addColumn("description_length", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("icd_codes_pk", ["year", "code"])
        .execute();
      await db.schema
        .createTable("icd_words")
        .addColumn("year", "integer", (c) => c.notNull())
        .addColumn("word", "varchar(60)", (c) => c.notNull())
        .addColumn("code", "varchar(8)", (c) => c.notNull())
        .addPrimaryKeyConstraint("icd_words_pk", ["year", "word", "code"])
        .execute();
      // The primary key finds the codes of a word prefix; this one checks a code's other words.
      await db.schema.createIndex("icd_words_code_ix").on("icd_words").columns(["year", "code", "word"]).execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ["icd_words", "icd_codes"]) await db.schema.dropTable(t).execute();
    },
  };
}
