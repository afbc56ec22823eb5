import type { Insertable, Kysely } from "kysely";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

type TableWithId =
  | "cases"
  | "referring_physicians"
  | "insurance_cards"
  | "authorizations"
  | "appointments"
  | "webhook_subscriptions"
  | "webhook_deliveries"
  | "soap_notes"
  | "soap_signatures"
  | "claims"
  | "plans_of_care"
  | "jobs"
  | "providers"
  | "provider_schedules"
  | "provider_blocks"
  | "waitlist_requests"
  | "eligibility_checks"
  | "patient_documents"
  | "tasks"
  | "task_comments"
  | "therapy_charges";

/** INSERT and the generated id: RETURNING where the engine has it, the driver's insert id elsewhere (MySQL). */
export async function insertReturningId<T extends TableWithId>(
  db: Kysely<Database>,
  profile: SqlDialectProfile,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  const insert = db.insertInto(table).values(values as never);
  if (profile.capabilities.returning)
    return Number(((await insert.returning("id" as never).executeTakeFirstOrThrow()) as unknown as { id: number }).id);
  return Number((await insert.executeTakeFirstOrThrow()).insertId);
}
