import type { PatientListCriteria } from "@openpractice/core";
import {
  patientListQueries,
  walkedSearchPage,
  walkWorthTrying,
  type Database,
  type PatientSearchIndex,
  type WalkedPageOptions,
} from "@openpractice/kysely";
import { sql, type Kysely, type Migration } from "kysely";

/**
 * Tenant-scoped search keys. A pg_trgm index holds one posting list per
 * trigram for the whole table: `smith` reads 154,122 entries in a 10,000,000-row
 * database whatever the organisation, and a 2,000-patient clinic waits 125 ms
 * for them (docs/performance.md, "Vendor scale"). Here every key is a hash of one
 * 3-character substring of `search_text` seeded with the organisation id, so a
 * posting list holds only that organisation's patients: `smith` in that clinic
 * reads its 28 candidates, and in the largest organisation its own 5,800.
 *
 * Every 3-character substring of a term is one of the stored text's when the
 * term is a substring of it, so the keys find every match; a hash collision
 * only adds a candidate, and the shared `LIKE` recheck keeps the answer exact.
 * Substrings count characters (not bytes), the same on both sides, with no
 * word splitting and no locale: folded text in any script works alike.
 */
/** The keys of `t` in organisation `org`: the one definition, used by the index and by every query. */
const createKeysFunction = sql`create or replace function patient_search_keys(org bigint, t text) returns bigint[]
  language sql immutable strict parallel safe as $$
    select coalesce(array_agg(distinct hashtextextended(substr(t, i, 3), org)), '{}')
    from generate_series(1, length(t) - 2) i
  $$`;

export const patientSearchKeysMigration = {
  async up(db: Kysely<any>) {
    await createKeysFunction.execute(db);
    // `if not exists`: a vendor with millions of rows may build it beforehand with CREATE INDEX CONCURRENTLY
    // under this name (docs/performance.md), and this migration then only drops the old index.
    await sql`create index if not exists patients_search_keys_ix on patients using gin (patient_search_keys(organisation_id, search_text))`.execute(
      db,
    );
    // New keys wait in the index's pending list until vacuum or the limit merges them, and every search reads the
    // whole list: at the default 4 MB, 3,478 recent registrations added 3 ms to each scan. At 512 kB a search reads
    // at most 64 pending pages, and registrations per second did not change (docs/vendor-scale.md).
    await sql`alter index patients_search_keys_ix set (gin_pending_list_limit = 512)`.execute(db);
    await sql`drop index if exists patients_search_trgm_ix`.execute(db);
    // The planner's estimates for the new expression come from ANALYZE.
    await sql`analyze patients`.execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`create index if not exists patients_search_trgm_ix on patients using gin (search_text gin_trgm_ops)`.execute(
      db,
    );
    await sql`drop index if exists patients_search_keys_ix`.execute(db);
    await sql`drop function if exists patient_search_keys(bigint, text)`.execute(db);
  },
} satisfies Migration;

/** Terms the keys can serve: 3 characters or more (a shorter term has no 3-character substring). */
const keyedTerms = (c: PatientListCriteria) => c.searchTerms.filter((t) => [...t].length >= 3);

/** When a page is first looked for among the first rows in list order (@openpractice/kysely's walkedSearchPage). */
export type KeyedSearchOptions = WalkedPageOptions;

export const KEYED_SEARCH_DEFAULTS: KeyedSearchOptions = Object.freeze({ walkFromPatients: 20_000, walkRows: 2_000 });

/** The walked page in a large organisation, else undefined (the keys then answer). */
async function walkedPage(db: Kysely<Database>, c: PatientListCriteria, options: KeyedSearchOptions) {
  if (!(await walkWorthTrying(db, c, options))) return undefined;
  return walkedSearchPage(db, c, options);
}

/**
 * The shared list's page and bounded count, restricted to the organisation's
 * candidates for every term of 3 or more characters. The condition repeats the
 * indexed expression exactly, so the planner can use the index; the term's keys
 * are computed by the same function. A search of short terms only is left to
 * the shared scan of the organisation's rows.
 */
export function keyedPatientSearchWith(options: KeyedSearchOptions): PatientSearchIndex {
  return {
    async list(db: Kysely<Database>, c: PatientListCriteria) {
      const terms = keyedTerms(c);
      if (terms.length === 0) return undefined;
      const { page, count } = patientListQueries(db, c, (q) =>
        terms.reduce(
          (narrowed, term) =>
            narrowed.where(
              sql<boolean>`patient_search_keys(organisation_id, search_text) @> patient_search_keys(${c.organisationId}::bigint, ${term}::text)`,
            ),
          q,
        ),
      );
      // Count and page at the same time, on two connections.
      const [rows, counted] = await Promise.all([
        walkedPage(db, c, options).then((walked) => walked ?? page.execute()),
        count.executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(counted.n) };
    },
  };
}

export const keyedPatientSearch = keyedPatientSearchWith(KEYED_SEARCH_DEFAULTS);
