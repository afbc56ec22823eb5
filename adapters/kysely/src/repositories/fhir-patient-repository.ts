import {
  type FhirPatientCriteria,
  type FhirPatientRepository,
  PATIENT_STATUSES,
  type StringFilter,
} from "@openpractice/core";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import { rowToPatient } from "./patient-rows.js";

type Patients = ExpressionBuilder<Database, "patients">;
type NameColumn = "last_name_sort" | "first_name_sort";

const escaped = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * One string filter on a folded name column: prefix and contains by LIKE (the values are folded), exact by the
 * folded value's equality (core narrows that to the exact text: the engines' collations differ on case).
 */
function matches(eb: Patients, columns: readonly NameColumn[], f: StringFilter) {
  return eb.or(
    columns.flatMap((column) =>
      f.values.map((v) =>
        f.mode === "exact"
          ? sql<boolean>`${sql.ref(column)} = ${v}`
          : sql<boolean>`${sql.ref(column)} like ${f.mode === "prefix" ? `${escaped(v)}%` : `%${escaped(v)}%`} escape ${"\\"}`,
      ),
    ),
  );
}

/**
 * The index range of a filter's one plain prefix of letters and digits: from the prefix to the next prefix of the
 * same kind (kowal → kowam, kowaz → kowb: a trailing z or 9 carries), which every engine's collation orders after
 * all names starting with it. A prefix of z's and 9's alone has no upper bound.
 */
function prefixRange(f: StringFilter): { from: string; before: string | undefined } | undefined {
  const [value] = f.values;
  if (f.mode !== "prefix" || f.values.length !== 1 || !value || !/^[a-z0-9]+$/.test(value)) return undefined;
  const kept = value.replace(/[z9]+$/, "");
  if (kept === "") return { from: value, before: undefined };
  return { from: value, before: kept.slice(0, -1) + String.fromCharCode(kept.charCodeAt(kept.length - 1) + 1) };
}

const SORT_COLUMNS = {
  id: "id",
  updated: "updated_at",
  family: "last_name_sort",
  birthdate: "date_of_birth",
} as const;

/** FHIR Patient search over the patients table (the organisation's index leads every query). */
export class KyselyFhirPatientRepository implements FhirPatientRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async search(c: FhirPatientCriteria) {
    let q = this.db.selectFrom("patients").selectAll().where("organisation_id", "=", c.organisationId);
    for (const ids of c.ids ?? []) q = ids.length ? q.where("id", "in", [...ids]) : q.where(sql<boolean>`1 = 0`);
    for (const f of c.family ?? []) {
      q = q.where((eb) => matches(eb, ["last_name_sort"], f));
      // One plain prefix: also as a range, which the (organisation, status, last name) index serves (LIKE alone
      // scans the organisation's patients on SQLite and PostgreSQL). Letters and digits only, where every engine's
      // collation orders the folded names as their bytes do; the LIKE above still decides.
      const range = prefixRange(f);
      if (range) {
        q = q.where("status", "in", [...PATIENT_STATUSES]).where("last_name_sort", ">=", range.from);
        if (range.before !== undefined) q = q.where("last_name_sort", "<", range.before);
      }
    }
    for (const f of c.given ?? []) q = q.where((eb) => matches(eb, ["first_name_sort"], f));
    for (const f of c.name ?? []) q = q.where((eb) => matches(eb, ["last_name_sort", "first_name_sort"], f));
    for (const r of c.birthDate ?? []) {
      if (r.from !== undefined) q = q.where("date_of_birth", ">=", r.from);
      if (r.before !== undefined) q = q.where("date_of_birth", "<", r.before);
    }
    for (const sexes of c.sex ?? []) q = sexes.length ? q.where("sex", "in", [...sexes]) : q.where(sql<boolean>`1 = 0`);
    for (const r of c.updated ?? []) {
      if (r.from) q = q.where("updated_at", ">=", toDbTime(r.from));
      if (r.before) q = q.where("updated_at", "<", toDbTime(r.before));
    }
    const column = SORT_COLUMNS[c.sort.field];
    if (column !== "id") q = q.orderBy(column, c.sort.order);
    const rows = await q
      .orderBy("id", c.sort.order)
      .limit(c.limit + 1)
      .offset(c.offset)
      .execute();
    return { patients: rows.slice(0, c.limit).map(rowToPatient), hasMore: rows.length > c.limit };
  }
}
