import type { Compilable, Kysely } from "kysely";
import type { Database } from "./schema.js";
import { compileByShape, type Shaped } from "./statements-by-shape.js";

/**
 * Marks a statement whose result nobody reads, so a driver may hold it and write it with the next statement of
 * the transaction (on PostgreSQL, with COMMIT: `pipelinedTransactions`). A SQL comment: any engine ignores it.
 */
export const SENT_WITH_NEXT_STATEMENT = "/* sent with the next statement */ ";

/** Runs the statement compiled by shape (statements-by-shape.ts) and marked SENT_WITH_NEXT_STATEMENT. */
export async function executeWithNext(
  trx: Kysely<Database>,
  shaped: Shaped | undefined,
  build: () => Compilable,
): Promise<void> {
  const compiled = compileByShape(trx, shaped, build);
  await trx.executeQuery({ ...compiled, sql: SENT_WITH_NEXT_STATEMENT + compiled.sql });
}
