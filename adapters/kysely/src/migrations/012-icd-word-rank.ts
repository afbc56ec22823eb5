import { sql, type Kysely, type Migration } from "kysely";
import { dropIndexOf, type SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * The description length (the search's ranking key) copied onto every word row,
 * with an index that covers the word search's driving scan: matches are found
 * and ranked from the word index alone, without reading each matching code.
 */
export function icdWordRankMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("icd_words")
        .addColumn("description_length", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`update icd_words set description_length = (select c.description_length from icd_codes c where c.year = icd_words.year and c.code = icd_words.code)`.execute(
        db,
      );
      await db.schema
        .createIndex("icd_words_rank_ix")
        .on("icd_words")
        .columns(["year", "word", "description_length", "code"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await dropIndexOf(db, profile, "icd_words_rank_ix", "icd_words").execute();
      await db.schema.alterTable("icd_words").dropColumn("description_length").execute();
    },
  };
}
