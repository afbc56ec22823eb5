import { sql, type Kysely, type Migration } from "kysely";

/**
 * A trigram side table for patient search on MySQL 8 and MariaDB, which have no
 * substring index (InnoDB FULLTEXT matches words; MariaDB has no n-gram parser).
 * `patient_search_trigrams` holds one row per distinct 3-character substring of
 * each patient's `search_text`, keyed (organisation_id, trigram, patient_id) so
 * every lookup stays inside one organisation. Triggers on `patients` keep it in
 * the same transaction as the row, so every write path (API, imports, bulk loads)
 * keeps it without repository code.
 *
 * The trigram column takes the collation of `patients.search_text`: equal
 * trigrams are then equal exactly when `LIKE` would match them character by
 * character (e.g. σ and ς under utf8mb4_unicode_ci), so the side table never
 * misses a row the shared `LIKE` scan would find, and the `LIKE` recheck drops
 * the rest.
 */
export const TRIGRAM_TABLE = "patient_search_trigrams";

const TRIGGERS = ["patients_search_trigrams_ai", "patients_search_trigrams_au", "patients_search_trigrams_ad"];

/**
 * The one definition of a row's trigrams: (organisation_id, trigram, patient_id)
 * for every position 1 … length − 2 of `text`, positions from a recursive CTE
 * (MySQL 8, MariaDB 10.2+; also inside a trigger). `source` is what `text`,
 * `organisationId` and `id` are read from: nothing for a trigger's NEW/OLD row,
 * or a table for the set-based rebuild; `longest` bounds the positions.
 */
function trigramRows(row: { organisationId: string; id: string; text: string; longest: string }, source = ""): string {
  return `with recursive pos (n) as (select 1 union all select n + 1 from pos where n < ${row.longest} - 2)
    select ${row.organisationId} as organisation_id, substring(${row.text}, pos.n, 3) as trigram, ${row.id} as patient_id
    from ${source ? `${source} join pos on` : "pos where"} pos.n <= char_length(${row.text}) - 2`;
}

const rowTrigrams = (r: "new" | "old") =>
  trigramRows({
    organisationId: `${r}.organisation_id`,
    id: `${r}.id`,
    text: `${r}.search_text`,
    longest: `char_length(${r}.search_text)`,
  });

const insertRowTrigrams = (r: "new" | "old") =>
  `insert ignore into ${TRIGRAM_TABLE} (organisation_id, trigram, patient_id) ${rowTrigrams(r)}`;

// Deleting by the old row's own trigrams reads only its keys; patient_id alone is not a key prefix.
const deleteRowTrigrams = (r: "new" | "old") =>
  `delete t from ${TRIGRAM_TABLE} t join (${rowTrigrams(r)}) g
     on t.organisation_id = g.organisation_id and t.trigram = g.trigram and t.patient_id = g.patient_id`;

/**
 * Every patient's trigrams, set-based (one INSERT … SELECT): the migration's
 * backfill, and a bulk load that fills `patients` first. Sorted by the key, so
 * InnoDB appends to its pages instead of splitting them.
 */
export function rebuildPatientSearchTrigrams(db: Kysely<any>) {
  const all = trigramRows(
    {
      organisationId: "p.organisation_id",
      id: "p.id",
      text: "p.search_text",
      longest: "(select coalesce(max(char_length(search_text)), 0) from patients)",
    },
    "patients p",
  );
  return sql
    .raw(
      `insert ignore into ${TRIGRAM_TABLE} (organisation_id, trigram, patient_id)
       select * from (${all}) t order by organisation_id, trigram, patient_id`,
    )
    .execute(db);
}

/** Migration 032: the side table, its triggers, and the trigrams of the patients already stored. */
export const patientSearchTrigramsMigration = {
  async up(db: Kysely<any>) {
    const column = await sql<{ c: string | null }>`select collation_name as c from information_schema.columns
      where table_schema = database() and table_name = 'patients' and column_name = 'search_text'`.execute(db);
    const collation = column.rows[0]?.c;
    if (!collation || !/^utf8mb4_\w+$/.test(collation))
      throw new Error(`patients.search_text: expected a utf8mb4 collation, found ${collation ?? "none"}`);
    await sql
      .raw(
        `create table ${TRIGRAM_TABLE} (
          organisation_id bigint not null,
          trigram varchar(3) character set utf8mb4 collate ${collation} not null,
          patient_id integer not null,
          primary key (organisation_id, trigram, patient_id)
        ) engine = InnoDB`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${TRIGGERS[0]} after insert on patients for each row ${insertRowTrigrams("new")}`)
      .execute(db);
    // MySQL has no UPDATE OF column: the body skips updates that leave the search text (and the keys) alone.
    await sql
      .raw(
        `create trigger ${TRIGGERS[1]} after update on patients for each row
         begin
           if not (new.search_text <=> old.search_text and new.organisation_id <=> old.organisation_id and new.id <=> old.id) then
             ${deleteRowTrigrams("old")};
             ${insertRowTrigrams("new")};
           end if;
         end`,
      )
      .execute(db);
    await sql
      .raw(`create trigger ${TRIGGERS[2]} after delete on patients for each row ${deleteRowTrigrams("old")}`)
      .execute(db);
    await rebuildPatientSearchTrigrams(db);
  },
  async down(db: Kysely<any>) {
    for (const t of TRIGGERS) await sql.raw(`drop trigger if exists ${t}`).execute(db);
    await sql.raw(`drop table ${TRIGRAM_TABLE}`).execute(db);
  },
} satisfies Migration;
