import type { InsertPatientResult, PatientListCriteria, PatientRecord, PatientRepository } from "@openpractice/core";
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from "kysely";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import { toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { PatientsTable } from "../tables/patients.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { executeWithNext } from "../sent-with-next.js";
import { insertAhead, reservedId } from "../speculative-inserts.js";
import { executeInsertByShape, rowsShape } from "../statements-by-shape.js";
import { containsPattern } from "./contains-pattern.js";
import { patientToRow, rowToPatient } from "./patient-rows.js";

/** Not a string holding a lone surrogate (with the u flag a pair is one code point; a lone half matches \p{Cs}). */
const isWellFormedValue = (value: unknown) => typeof value !== "string" || !/\p{Cs}/u.test(value);

/** `search_text` contains `term` (the shared search condition; an engine's index only narrows the rows it tests). */
export const searchTextContains = (term: string) =>
  sql<boolean>`search_text like ${containsPattern(term)} escape ${"\\"}`;

/** The list filters of a criteria (organisation, status, every search term, the date bounds) on a patients query. */
export function applyPatientFilters<O>(
  q: SelectQueryBuilder<Database, "patients", O>,
  c: PatientListCriteria,
): SelectQueryBuilder<Database, "patients", O> {
  let query = q.where("organisation_id", "=", c.organisationId);
  if (c.status !== "all") query = query.where("status", "=", c.status);
  for (const term of c.searchTerms) {
    query = query.where(searchTextContains(term));
  }
  if (c.createdFrom) query = query.where("created_at", ">=", toDbTime(c.createdFrom));
  if (c.createdBefore) query = query.where("created_at", "<", toDbTime(c.createdBefore));
  if (c.updatedFrom) query = query.where("updated_at", ">=", toDbTime(c.updatedFrom));
  if (c.updatedBefore) query = query.where("updated_at", "<", toDbTime(c.updatedBefore));
  return query;
}

/** Sort field → column. Names sort on their folded columns, so the order is alphabetical, not by byte. */
export const PATIENT_SORT_COLUMNS = {
  created_at: "created_at",
  updated_at: "updated_at",
  last_name: "last_name_sort",
  first_name: "first_name_sort",
} as const;

/** Narrows a patients query further (an engine's search index restricts it to its candidates). */
export type PatientQueryNarrowing = <O>(
  q: SelectQueryBuilder<Database, "patients", O>,
) => SelectQueryBuilder<Database, "patients", O>;

/**
 * The list's page (filters, sort, id tiebreak, limit/offset) and its count,
 * bounded by `countLimit` as the list reports it; `narrow` adds conditions to
 * both, so an engine's search index answers with exactly the shared list's rows.
 */
export function patientListQueries(
  db: Kysely<Database>,
  c: PatientListCriteria,
  narrow: PatientQueryNarrowing = (q) => q,
) {
  const base = db.selectFrom("patients");
  const filtered = <O>(q: SelectQueryBuilder<Database, "patients", O>) => narrow(applyPatientFilters(q, c));
  const page = filtered(base.selectAll())
    .orderBy(PATIENT_SORT_COLUMNS[c.sort], c.order)
    .orderBy("id", c.order)
    .limit(c.limit)
    .offset(c.offset);
  // A bounded count stops reading matches after countLimit + 1 of them.
  const count =
    c.countLimit === undefined
      ? filtered(base.select((eb) => eb.fn.countAll().as("n")))
      : db
          .selectFrom(
            filtered(base.select(sql.lit(1).as("one")))
              .limit(c.countLimit + 1)
              .as("m"),
          )
          .select((eb) => eb.fn.countAll().as("n"));
  return { page, count };
}

/**
 * The page's ids first, then their rows in the list's order. The ids come from
 * the sort index alone where the filters allow: a deep page (offset 3,980) of a
 * plain query reads every skipped row from the table (21 ms against 1 ms in a
 * 375,000-patient organisation on PostgreSQL), and sorting ids is cheaper than
 * sorting whole rows (MySQL went through a temporary table of full-width rows).
 */
export function rowsOfPage<O>(
  db: Kysely<Database>,
  page: SelectQueryBuilder<Database, "patients", O>,
  c: PatientListCriteria,
) {
  const pageIds = db.selectFrom(page.clearSelect().select("id").as("k")).select("k.id");
  return db
    .selectFrom("patients")
    .selectAll()
    .where("id", "in", pageIds)
    .orderBy(PATIENT_SORT_COLUMNS[c.sort], c.order)
    .orderBy("id", c.order);
}

export class KyselyPatientRepository implements PatientRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  /** The patient holding the identity, as last committed (also when this transaction's snapshot is older). */
  private findByIdentity(organisationId: number, identityKey: string) {
    const query = this.db
      .selectFrom("patients")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("identity_key", "=", identityKey);
    return readLatest(this.profile, query).executeTakeFirst();
  }

  async insertIfAbsent(record: PatientRecord): Promise<InsertPatientResult> {
    const patientRow = patientToRow(record);
    // Text the driver would alter on the way (a lone surrogate becomes U+FFFD) is answered as stored, so it waits.
    if (this.profile.reserveIds && Object.values(patientRow).every(isWellFormedValue) && insertAhead(this.db)) {
      // Sent with the transaction's next statement (its commit), not waited for: a duplicate fails that statement
      // and the transaction runs again without inserting ahead (speculative-inserts.ts). No RETURNING: rows
      // answered to a held statement would be read as the next one's. The answer is the row as sent, which is the
      // row as stored: every column rowToPatient reads is one patientToRow writes, unchanged by any default or
      // trigger (patient-rows.ts).
      const values = { id: await reservedId(this.db, this.profile, "patients"), ...patientRow };
      const shaped = rowsShape("patients", [values]);
      await executeWithNext(this.db, shaped && { shape: `insert ahead: ${shaped.shape}`, values: shaped.values }, () =>
        this.db.insertInto("patients").values(values),
      );
      return { created: true, patient: rowToPatient(values as Selectable<PatientsTable>) };
    }
    let created: boolean;
    if (this.profile.capabilities.returning || this.profile.insertReturning) {
      // One statement on the common path: the inserted row comes back; a duplicate comes back empty.
      const values = patientRow;
      const insert = () =>
        this.profile
          .ignoreDuplicates(this.db.insertInto("patients").values(values), ["organisation_id", "identity_key"])
          .returningAll();
      // The rows as the driver returned them: Kysely's MySQL adapter declares no RETURNING, and its builder would
      // answer MariaDB's with an insert result (a row-shaped nothing) in place of the rows.
      const [row] = (
        await executeInsertByShape<Selectable<PatientsTable>>(
          this.db,
          "insert ignoring duplicates returning all",
          "patients",
          [values],
          insert,
        )
      ).rows;
      if (row) return { created: true, patient: rowToPatient(row) };
      created = false;
    } else {
      created = await insertIgnoringDuplicate(this.db, this.profile, "patients", patientRow, [
        "organisation_id",
        "identity_key",
      ]);
    }
    const row = await this.findByIdentity(record.organisationId, record.identityKey);
    if (!row) throw new Error("patients: row missing right after insert-if-absent");
    return { created, patient: rowToPatient(row) };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("patients")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? rowToPatient(row) : undefined;
  }

  async replace(id: number, record: PatientRecord) {
    const clash = await this.findByIdentity(record.organisationId, record.identityKey);
    if (clash && Number(clash.id) !== id) return { outcome: "conflict" as const, existingId: Number(clash.id) };
    const { organisation_id: _org, created_at: _created, ...changes } = patientToRow(record);
    try {
      const update = () =>
        this.db
          .updateTable("patients")
          .set(changes)
          .where("organisation_id", "=", record.organisationId)
          .where("id", "=", id)
          .executeTakeFirst();
      const result = await refusableStatement(this.db, this.profile, update);
      if (Number(result.numUpdatedRows) === 0) return { outcome: "missing" as const };
    } catch (error) {
      // A concurrent write took the identity between the check and the update: the unique key decides.
      if (!this.profile.isUniqueViolation(error)) throw error;
      const holder = await this.findByIdentity(record.organisationId, record.identityKey);
      return { outcome: "conflict" as const, existingId: holder ? Number(holder.id) : null };
    }
    const row = await this.findById(record.organisationId, id);
    if (!row) return { outcome: "missing" as const };
    return { outcome: "updated" as const, patient: row };
  }

  async list(c: PatientListCriteria) {
    const indexed = c.searchTerms.length > 0 ? await this.profile.patientSearch?.list(this.db, c) : undefined;
    if (indexed) return { patients: indexed.rows.map(rowToPatient), total: indexed.total };
    const { page: pageQuery, count: countQuery } = patientListQueries(this.db, c);
    const rows = rowsOfPage(this.db, pageQuery, c);
    // An engine may keep the organisation's count (PostgreSQL: per status, by triggers) instead of counting rows.
    const counting = async () =>
      (await this.profile.patientCounts?.total(this.db, c)) ?? Number((await countQuery.executeTakeFirstOrThrow()).n);
    // Page and count at the same time: on a pooled engine they run on two connections.
    const [page, total] = await Promise.all([rows.execute(), counting()]);
    return { patients: page.map(rowToPatient), total };
  }
}
