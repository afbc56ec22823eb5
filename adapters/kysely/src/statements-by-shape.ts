import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from "kysely";
import type { Database } from "./schema.js";

/**
 * Kysely builds a statement's tree and compiles it to SQL on every call: for a patient's insert about 17 µs, for an
 * audit or outbox row about 6, some 35 µs of the CPU of each registration (2026-11-26). A hot write's SQL depends
 * only on its shape (the table, the columns given, the number of rows), so it is compiled once per shape and
 * connection's dialect, and later calls bind their values to it.
 *
 * Safe by construction: the first call of a shape compiles through Kysely as before, and its SQL is kept only if
 * Kysely's parameters are exactly the values the caller will bind, in order (a value Kysely inlines or turns into
 * an expression would make them differ; such a shape is never cached). A connection with plugins (the read
 * routing's write recorder) is always built through Kysely, since a plugin rewrites the tree.
 */
const sqlByShape = new WeakMap<object, Map<string, string | null>>();

/**
 * Marks the SQL kept for a shape: its text is the same on every call of the shape, and its plan does not depend on
 * the values bound to it (every statement compiled by shape is an INSERT), so a driver may parse it once per
 * connection and bind later calls to it (on PostgreSQL, a named prepared statement: `pipelinedTransactions`).
 * A SQL comment: any engine ignores it. Only SQL taken from the cache carries it, so the texts marked are at most
 * the MAX_SHAPES kept.
 */
export const PREPARABLE = "/* prepared */ ";

/** Shapes kept per dialect; a shape past the bound is compiled every time, as without the cache. */
const MAX_SHAPES = 512;

function sameParameters(compiled: readonly unknown[], values: readonly unknown[]) {
  return compiled.length === values.length && compiled.every((value, i) => Object.is(value, values[i]));
}

/** A statement's shape (what its SQL depends on) and the values it binds, in order. */
export interface Shaped {
  shape: string;
  values: unknown[];
}

/**
 * The compiled statement of `build()`, from the shape's cached SQL (marked PREPARABLE) and its values where it
 * has one; without a shape, compiled by Kysely. Only for statements whose plan does not depend on their values.
 */
export function compileByShape(
  db: Kysely<Database>,
  shaped: Shaped | undefined,
  build: () => Compilable,
): CompiledQuery {
  const executor = db.getExecutor();
  if (!shaped || executor.plugins.length > 0) return build().compile();
  const { shape, values } = shaped;
  let shapes = sqlByShape.get(executor.adapter);
  if (!shapes) {
    shapes = new Map();
    sqlByShape.set(executor.adapter, shapes);
  }
  const cached = shapes.get(shape);
  if (typeof cached === "string") return CompiledQuery.raw(cached, [...values]);
  const compiled = build().compile();
  if (cached === undefined && shapes.size < MAX_SHAPES)
    shapes.set(shape, sameParameters(compiled.parameters, values) ? PREPARABLE + compiled.sql : null);
  return compiled;
}

/** A value Kysely binds as a parameter as it is; anything else (an expression, a function) it turns into SQL. */
const isPlainValue = (value: unknown) =>
  value === null ||
  typeof value === "string" ||
  typeof value === "number" ||
  typeof value === "bigint" ||
  typeof value === "boolean" ||
  value instanceof Date ||
  value instanceof Uint8Array;

/**
 * The shape and values of rows inserted together: the columns of the first row that are not undefined (Kysely's
 * insert omits those), in its key order, and every row's values for them. Rows of another set of columns make no
 * shape (undefined): Kysely fills their gaps with DEFAULT; nor does a value that is not a plain value, since the
 * SQL cached for the shape binds each value as a parameter.
 */
export function rowsShape(table: string, rows: ReadonlyArray<Record<string, unknown>>): Shaped | undefined {
  const first = rows[0];
  if (!first) return undefined;
  const columns = Object.keys(first).filter((column) => first[column] !== undefined);
  const values: unknown[] = [];
  for (const row of rows) {
    let defined = 0;
    for (const key in row) if (row[key] !== undefined) defined++;
    if (defined !== columns.length) return undefined;
    for (const column of columns) {
      const value = row[column];
      if (value === undefined || !isPlainValue(value)) return undefined;
      values.push(value);
    }
  }
  return { shape: `${table}(${columns.join(",")})×${rows.length}`, values };
}

/**
 * Runs `build()`, an insert of `rows` into `table` (`statement` names what it does around the insert, e.g.
 * "ignoring duplicates, returning all"), compiled by shape; `extraValues` are the parameters the statement binds
 * after the rows' values (an upsert's increment).
 */
export function executeInsertByShape<R = unknown>(
  db: Kysely<Database>,
  statement: string,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
  build: () => Compilable,
  extraValues: readonly unknown[] = [],
): Promise<QueryResult<R>> {
  const rowsShaped = rowsShape(table, rows);
  const shaped = rowsShaped && {
    shape: `${statement}: ${rowsShaped.shape}`,
    values: [...rowsShaped.values, ...extraValues],
  };
  return db.executeQuery<R>(compileByShape(db, shaped, build) as CompiledQuery<R>);
}
