import type { RawQuery } from "./engines.js";

/** The column a distributed PostgreSQL (Citus) would shard the tenant tables by (docs/scale-out.md). */
export const DISTRIBUTION_COLUMN = "organisation_id";

/** Every table of the schema, and whether it has the distribution column. */
export interface SchemaTables {
  /** Tables with an organisation_id column: one organisation's rows each. */
  tenant: string[];
  /** Tables without one. */
  other: string[];
}

/**
 * The uniqueness and reference rules of a tenant table that leave organisation_id out, one line each, e.g.
 * `appointments: foreign key (patient_id) references patients (id)`: primary keys, unique constraints, unique
 * indexes and exclusion constraints whose columns do not include it, and foreign keys that do not pair it with the
 * referenced table's organisation_id (or organisations.id). Citus enforces none of them across shards. A foreign key
 * to one of `referenceTables` (copied to every node) needs no organisation_id. Tables without organisation_id are
 * not read here: schemaTables lists them, and each is a shared table or a child table to be given the column.
 */
export interface TenantKeyGap {
  table: string;
  rule: string;
}

/** The tables of the current schema (ordinary and partitioned), split by whether they have organisation_id. */
export async function schemaTables(raw: RawQuery): Promise<SchemaTables> {
  const rows = await raw.query(
    `select c.relname as name,
            exists (select 1 from pg_attribute a
                     where a.attrelid = c.oid and a.attname = ? and a.attnum > 0 and not a.attisdropped) as tenant
       from pg_class c
      where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`,
    [DISTRIBUTION_COLUMN],
  );
  return {
    tenant: rows.filter((r) => r.tenant === true).map((r) => String(r.name)),
    other: rows.filter((r) => r.tenant !== true).map((r) => String(r.name)),
  };
}

/** The gaps of the current schema (see TenantKeyGap), sorted. */
export async function tenantKeyGaps(raw: RawQuery, referenceTables: readonly string[]): Promise<TenantKeyGap[]> {
  const { tenant } = await schemaTables(raw);
  // Constraints (primary, unique, exclusion, foreign) and the unique indexes no constraint owns, with their columns
  // by name in key order; for a foreign key the referenced table and columns, in the same order.
  const rows = await raw.query(
    `select c.conrelid::regclass::text as "table", c.contype as kind,
            array(select a.attname from unnest(c.conkey) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.ord)::text[] as columns,
            c.confrelid::regclass::text as referenced,
            array(select a.attname from unnest(c.confkey) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.num order by k.ord)::text[]
              as referenced_columns
       from pg_constraint c
       join pg_class t on t.oid = c.conrelid
      where t.relnamespace = current_schema()::regnamespace and c.contype in ('p', 'u', 'x', 'f')
     union all
     select i.indrelid::regclass::text, 'i',
            array(select a.attname from unnest(i.indkey[0:i.indnkeyatts - 1]) with ordinality k(num, ord)
                    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num order by k.ord)::text[],
            null, null
       from pg_index i
       join pg_class t on t.oid = i.indrelid
      where t.relnamespace = current_schema()::regnamespace and i.indisunique
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.conrelid = i.indrelid)`,
  );
  const isTenant = (table: string) => tenant.includes(table);
  const gaps: TenantKeyGap[] = [];
  for (const row of rows) {
    const table = String(row.table);
    const columns = row.columns as string[];
    const list = `(${columns.join(", ")})`;
    if (row.kind === "f") {
      const referenced = String(row.referenced);
      const referencedColumns = row.referenced_columns as string[];
      const rule = `foreign key ${list} references ${referenced} (${referencedColumns.join(", ")})`;
      const pairsOrganisation = columns.some(
        (column, i) =>
          column === DISTRIBUTION_COLUMN &&
          (referencedColumns[i] === DISTRIBUTION_COLUMN ||
            (referenced === "organisations" && referencedColumns[i] === "id")),
      );
      if (isTenant(table) && !pairsOrganisation && !referenceTables.includes(referenced)) gaps.push({ table, rule });
      continue;
    }
    if (!isTenant(table) || columns.includes(DISTRIBUTION_COLUMN)) continue;
    const what = { p: "primary key", u: "unique", x: "exclusion", i: "unique index" }[String(row.kind)];
    gaps.push({ table, rule: `${what} ${list}` });
  }
  return gaps.sort((a, b) => `${a.table}: ${a.rule}`.localeCompare(`${b.table}: ${b.rule}`));
}
