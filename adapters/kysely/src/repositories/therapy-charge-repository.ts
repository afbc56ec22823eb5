import type {
  LedgerRead,
  TherapyBucket,
  TherapyCharge,
  TherapyChargeRepository,
  TherapyChargeSource,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import type { TherapyChargesTable } from "../tables/medicare.js";
import { insertReturningId } from "./insert-returning-id.js";
import { readForUpdate, readLatest } from "../contention.js";

const toCharge = (r: Selectable<TherapyChargesTable>): TherapyCharge => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  year: Number(r.year),
  bucket: r.bucket as TherapyBucket,
  source: r.source as TherapyChargeSource,
  contextId: r.context_id,
  serviceDate: r.service_date,
  code: r.code,
  units: Number(r.units),
  allowedCents: Number(r.allowed_cents),
  priced: Boolean(Number(r.priced)),
  kx: Boolean(Number(r.kx)),
  description: r.description,
  recordedBy: r.recorded_by === null ? null : Number(r.recorded_by),
  createdAt: fromDbTime(r.created_at),
});

export class KyselyTherapyChargeRepository implements TherapyChargeRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(charges: ReadonlyArray<Omit<TherapyCharge, "id">>) {
    const out: TherapyCharge[] = [];
    // A visit has a few lines (50 at most): one insert each, for the ids every engine can return.
    for (const c of charges) {
      const id = await insertReturningId(this.db, this.profile, "therapy_charges", {
        organisation_id: c.organisationId,
        patient_id: c.patientId,
        year: c.year,
        bucket: c.bucket,
        source: c.source,
        context_id: c.contextId,
        service_date: c.serviceDate,
        code: c.code,
        units: c.units,
        allowed_cents: c.allowedCents,
        priced: c.priced ? 1 : 0,
        kx: c.kx ? 1 : 0,
        description: c.description,
        recorded_by: c.recordedBy,
        created_at: toDbTime(c.createdAt),
      });
      out.push({ ...c, id });
    }
    return out;
  }

  async totals(organisationId: number, patientId: number, year: number, through?: string, read: LedgerRead = "latest") {
    let q = this.db
      .selectFrom("therapy_charges")
      .select((eb) => ["bucket", eb.fn.sum<string | number>("allowed_cents").as("cents")])
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .where("year", "=", year);
    if (through !== undefined) q = q.where("service_date", "<=", through);
    // The latest committed rows: a completion reads them after taking the patient's lock, also where its snapshot
    // predates the other completion's commit (MySQL and MariaDB's repeatable read).
    const grouped = q.groupBy("bucket");
    const rows = await (read === "latest" ? readLatest(this.profile, grouped) : grouped).execute();
    const out: Record<TherapyBucket, number> = { PT_SLP: 0, OT: 0 };
    for (const r of rows) if (r.bucket === "PT_SLP" || r.bucket === "OT") out[r.bucket] = Number(r.cents);
    return out;
  }

  async lockPatient(organisationId: number, patientId: number) {
    await readForUpdate(
      this.profile,
      this.db
        .selectFrom("patients")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .where("id", "=", patientId),
    ).execute();
  }

  async list(organisationId: number, patientId: number, year: number) {
    const rows = await this.db
      .selectFrom("therapy_charges")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .where("year", "=", year)
      .orderBy("service_date")
      .orderBy("id")
      .execute();
    return rows.map(toCharge);
  }
}
