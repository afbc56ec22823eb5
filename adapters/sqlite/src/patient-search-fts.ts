import type { PatientListCriteria } from "@openpractice/core";
import { sql, type Kysely, type Migration, type RawBuilder, type Selectable } from "kysely";
import { PATIENT_SORT_COLUMNS, type Database, type PatientSearchIndex, type PatientsTable } from "@openpractice/kysely";

/**
 * An FTS5 trigram index over patients.search_text (external content, kept in
 * step by triggers). A trigram phrase matches exactly the substrings LIKE
 * '%term%' does, for terms of 3 or more characters.
 */
export const patientSearchFtsMigration: Migration = {
  async up(db: Kysely<any>) {
    await sql`create virtual table patients_search using fts5(search_text, content='patients', content_rowid='id', tokenize='trigram')`.execute(
      db,
    );
    await sql`create trigger patients_search_ai after insert on patients begin
      insert into patients_search(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
    await sql`create trigger patients_search_ad after delete on patients begin
      insert into patients_search(patients_search, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
      db,
    );
    await sql`create trigger patients_search_au after update of search_text on patients begin
      insert into patients_search(patients_search, rowid, search_text) values ('delete', old.id, old.search_text);
      insert into patients_search(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
    // Index the rows that existed before this migration.
    await sql`insert into patients_search(patients_search) values ('rebuild')`.execute(db);
  },
  async down(db: Kysely<any>) {
    for (const t of ["patients_search_au", "patients_search_ad", "patients_search_ai"])
      await sql`drop trigger ${sql.raw(t)}`.execute(db);
    await sql`drop table patients_search`.execute(db);
  },
};

/** One quoted FTS5 phrase per term; all must match (implicit AND). */
const matchExpression = (terms: string[]) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");

function filters(c: PatientListCriteria): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [sql`p.organisation_id = ${c.organisationId}`];
  if (c.status !== "all") parts.push(sql`p.status = ${c.status}`);
  if (c.createdFrom) parts.push(sql`p.created_at >= ${c.createdFrom.toISOString()}`);
  if (c.createdBefore) parts.push(sql`p.created_at < ${c.createdBefore.toISOString()}`);
  if (c.updatedFrom) parts.push(sql`p.updated_at >= ${c.updatedFrom.toISOString()}`);
  if (c.updatedBefore) parts.push(sql`p.updated_at < ${c.updatedBefore.toISOString()}`);
  return sql.join(parts, sql` and `);
}

/**
 * Drives the list from the index: CROSS JOIN makes SQLite read the matching
 * rowids first and sort only those, instead of walking every patient in
 * created_at order testing LIKE.
 */
export const ftsPatientSearch: PatientSearchIndex = {
  async list(db: Kysely<Database>, c: PatientListCriteria) {
    if (c.searchTerms.some((t) => [...t].length < 3)) return undefined;
    const from = sql`from patients_search s cross join patients p on p.id = s.rowid
      where patients_search match ${matchExpression(c.searchTerms)} and ${filters(c)}`;
    const direction = sql.raw(c.order === "asc" ? "asc" : "desc");
    const sort = sql.ref(`p.${PATIENT_SORT_COLUMNS[c.sort]}`);
    const page = await sql<
      Selectable<PatientsTable>
    >`select p.* ${from} order by ${sort} ${direction}, p.id ${direction} limit ${c.limit} offset ${c.offset}`.execute(
      db,
    );
    const counted =
      c.countLimit === undefined
        ? await sql<{ n: number }>`select count(*) as n ${from}`.execute(db)
        : await sql<{ n: number }>`select count(*) as n from (select 1 ${from} limit ${c.countLimit + 1})`.execute(db);
    return { rows: page.rows, total: Number(counted.rows[0]?.n ?? 0) };
  },
};
