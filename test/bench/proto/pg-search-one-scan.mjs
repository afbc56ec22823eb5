// PROTOTYPE (not adopted, see docs/performance.md): a bounded search with one trigram index scan.
// - `m` holds the id and sort key of up to CAP + 1 matches, the only trigram scan; with at most CAP
//   matches it holds all of them, so the page is its right slice, read back by primary key, in the
//   same statement as the count. Above CAP the gate sits under the slice's sort, so nothing is sorted.
// - At the same time, on a second connection, a bounded walk: the page among the WALK_ROWS first rows
//   in sort order (the B-tree), filtered by the search. Above CAP matches, its page is the answer when
//   it is full; otherwise the shared page query runs afterwards.
// Used by pg-search-server.mjs as the option `one-scan`.
import { applyPatientFilters, containsPattern, PATIENT_SORT_COLUMNS } from "@openpractice/kysely";
import { sql } from "kysely";

const WALK_ROWS = 2000;

const pageQuery = (db, c) =>
  applyPatientFilters(db.selectFrom("patients").selectAll(), c)
    .orderBy(PATIENT_SORT_COLUMNS[c.sort], c.order)
    .orderBy("id", c.order)
    .limit(c.limit)
    .offset(c.offset);

function boundedWalk(db, c) {
  const recent = pageQuery(db, { ...c, searchTerms: [], limit: WALK_ROWS, offset: 0 });
  let searched = db.selectFrom(recent.as("r")).selectAll();
  for (const term of c.searchTerms)
    searched = searched.where(sql`r.search_text like ${containsPattern(term)} escape ${"\\"}`);
  return searched
    .orderBy(PATIENT_SORT_COLUMNS[c.sort], c.order)
    .orderBy("id", c.order)
    .limit(c.limit)
    .offset(c.offset)
    .execute();
}

/** { rows, total } with total capped at cap + 1, as the product's bounded count reports it. */
export async function oneScanList(db, c, cap) {
  const sortColumn = PATIENT_SORT_COLUMNS[c.sort];
  const direction = sql.raw(c.order === "asc" ? "asc" : "desc");
  const matches = applyPatientFilters(db.selectFrom("patients").select(["id", sql.ref(sortColumn).as("k")]), c).limit(
    cap + 1,
  );
  const oneScan = sql`
    with m as materialized (${matches}),
         c as materialized (select count(*) as n from m)
    select c.n as search_total, p.* from c left join (
      select p.* from patients p
        where p.id in (select id from m where (select n from c) <= ${cap} order by k ${direction}, id ${direction} limit ${c.limit} offset ${c.offset})
    ) p on true
    order by p.${sql.ref(sortColumn)} ${direction}, p.id ${direction}`.execute(db);
  const walk = c.status === "all" ? undefined : boundedWalk(db, c);
  const [one, walked] = await Promise.all([oneScan, walk]);
  const total = Number(one.rows[0]?.search_total ?? 0);
  if (total <= cap)
    return { total, rows: one.rows.filter((r) => r.id !== null).map(({ search_total: _t, ...row }) => row) };
  if (walked && walked.length === c.limit) return { total, rows: walked };
  return { total, rows: await pageQuery(db, c).execute() };
}
