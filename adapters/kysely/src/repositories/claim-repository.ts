import { storedClaimReference, type Claim, type ClaimDraft, type ClaimRepository } from "@openpractice/core";
import type { Kysely } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

/** The default BillingGateway's claims, one per note (a unique key). */
export class KyselyClaimRepository implements ClaimRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  insert(c: ClaimDraft & { status: string; createdAt: Date }) {
    return insertReturningId(this.db, this.profile, "claims", {
      organisation_id: c.organisationId,
      context_id: c.contextId,
      patient_id: c.patientId,
      service_case_id: c.serviceCaseId,
      service_date: c.serviceDate,
      rendering_physician: c.renderingPhysician,
      diagnosis_codes: JSON.stringify(c.diagnosisCodes),
      lines: JSON.stringify(c.lines),
      status: c.status,
      created_at: toDbTime(c.createdAt),
    });
  }

  async findByContextId(organisationId: number, contextId: string): Promise<Claim | undefined> {
    const r = await this.db
      .selectFrom("claims")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      id: Number(r.id),
      organisationId: Number(r.organisation_id),
      contextId: r.context_id,
      patientId: Number(r.patient_id),
      serviceCaseId: r.service_case_id === null ? null : Number(r.service_case_id),
      serviceDate: r.service_date,
      renderingPhysician: Number(r.rendering_physician),
      diagnosisCodes: JSON.parse(r.diagnosis_codes),
      lines: JSON.parse(r.lines),
      status: r.status,
      reference: storedClaimReference(Number(r.id)),
      createdAt: fromDbTime(r.created_at),
    };
  }
}
