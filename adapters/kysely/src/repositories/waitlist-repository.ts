import {
  PRIORITY_RANK,
  type PaymentMode,
  type WaitlistOffer,
  type WaitlistPriority,
  type WaitlistRepository,
  type WaitlistRequest,
  type WaitlistStatus,
  type OfferStatus,
} from "@openpractice/core";
import type { ExpressionBuilder, Kysely, Selectable } from "kysely";
import type { WaitlistOffersTable, WaitlistRequestsTable } from "../tables/waitlist.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const toRequest = (r: Selectable<WaitlistRequestsTable>): WaitlistRequest => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  serviceCaseId: r.service_case_id === null ? null : Number(r.service_case_id),
  providerIds: JSON.parse(r.provider_ids),
  clinicIds: JSON.parse(r.clinic_ids),
  appointmentTypeId: Number(r.appointment_type_id),
  preferredDays: JSON.parse(r.preferred_days),
  timeWindows: JSON.parse(r.time_windows),
  earliestDate: r.earliest_date,
  latestDate: r.latest_date,
  priority: r.priority as WaitlistPriority,
  paymentMode: r.payment_mode as PaymentMode,
  notes: r.notes,
  status: r.status as WaitlistStatus,
  appointmentId: r.appointment_id === null ? null : Number(r.appointment_id),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
  version: Number(r.version),
});

/**
 * The conditions under which a request's clinic_ids (the JSON text of an array of integers, as JSON.stringify writes
 * it: no spaces) names the clinic: alone, first, last or between two others. LIKE on the text works alike on every
 * engine, where each one's JSON functions differ; a request names at most 20 clinics.
 */
const namesClinic = (eb: ExpressionBuilder<Database, "waitlist_requests">, clinicId: number) => {
  const id = String(Math.trunc(clinicId));
  return [
    eb("clinic_ids", "=", `[${id}]`),
    eb("clinic_ids", "like", `[${id},%`),
    eb("clinic_ids", "like", `%,${id}]`),
    eb("clinic_ids", "like", `%,${id},%`),
  ];
};

/** Every column a change may write (not id, organisation, patient or created_at). */
const mutableColumns = (r: WaitlistRequest) => ({
  service_case_id: r.serviceCaseId,
  provider_ids: JSON.stringify(r.providerIds),
  clinic_ids: JSON.stringify(r.clinicIds),
  appointment_type_id: r.appointmentTypeId,
  preferred_days: JSON.stringify(r.preferredDays),
  time_windows: JSON.stringify(r.timeWindows),
  earliest_date: r.earliestDate,
  latest_date: r.latestDate,
  priority: r.priority,
  priority_rank: PRIORITY_RANK[r.priority],
  payment_mode: r.paymentMode,
  notes: r.notes,
  status: r.status,
  appointment_id: r.appointmentId,
  updated_at: toDbTime(r.updatedAt),
});

const toOffer = (r: Selectable<WaitlistOffersTable>): WaitlistOffer => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  requestId: Number(r.request_id),
  providerId: Number(r.provider_id),
  clinicId: Number(r.clinic_id),
  startsAt: fromDbTime(r.starts_at),
  endsAt: fromDbTime(r.ends_at),
  status: r.status as OfferStatus,
  expiresAt: fromDbTime(r.expires_at),
  createdAt: fromDbTime(r.created_at),
  decidedAt: r.decided_at === null ? null : fromDbTime(r.decided_at),
  appointmentId: r.appointment_id === null ? null : Number(r.appointment_id),
});

export class KyselyWaitlistRepository implements WaitlistRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insertRequest(r: Omit<WaitlistRequest, "id">): Promise<WaitlistRequest> {
    const id = await insertReturningId(this.db, this.profile, "waitlist_requests", {
      organisation_id: r.organisationId,
      patient_id: r.patientId,
      created_at: toDbTime(r.createdAt),
      version: r.version,
      ...mutableColumns({ ...r, id: 0 }),
    });
    return { ...r, id };
  }

  async findRequest(organisationId: number, id: number): Promise<WaitlistRequest | undefined> {
    const row = await this.db
      .selectFrom("waitlist_requests")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toRequest(row) : undefined;
  }

  async listRequests(
    organisationId: number,
    f: {
      statuses?: readonly WaitlistStatus[] | undefined;
      patientId?: number | undefined;
      inClinics?: readonly number[] | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<{ requests: WaitlistRequest[]; total: number }> {
    let base = this.db.selectFrom("waitlist_requests").where("organisation_id", "=", organisationId);
    if (f.statuses?.length) base = base.where("status", "in", [...f.statuses]);
    if (f.patientId !== undefined) base = base.where("patient_id", "=", f.patientId);
    const inClinics = f.inClinics;
    if (inClinics)
      base = base.where((eb) =>
        eb.or([eb("clinic_ids", "=", "[]"), ...inClinics.flatMap((id) => namesClinic(eb, id))]),
      );
    const [rows, counted] = await Promise.all([
      base
        .selectAll()
        .orderBy("priority_rank")
        .orderBy("created_at")
        .orderBy("id")
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      base.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { requests: rows.map(toRequest), total: Number(counted.n) };
  }

  async listWaiting(organisationId: number): Promise<WaitlistRequest[]> {
    const rows = await this.db
      .selectFrom("waitlist_requests")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("status", "=", "waiting")
      .execute();
    return rows.map(toRequest);
  }

  async updateRequest(r: WaitlistRequest): Promise<boolean> {
    const result = await this.db
      .updateTable("waitlist_requests")
      .set({ ...mutableColumns(r), version: r.version + 1 })
      .where("organisation_id", "=", r.organisationId)
      .where("id", "=", r.id)
      .where("version", "=", r.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertOffer(o: Omit<WaitlistOffer, "id">): Promise<WaitlistOffer | undefined> {
    const id = await insertIgnoringDuplicateReturningId(
      this.db,
      this.profile,
      "waitlist_offers",
      {
        organisation_id: o.organisationId,
        request_id: o.requestId,
        provider_id: o.providerId,
        clinic_id: o.clinicId,
        starts_at: toDbTime(o.startsAt),
        ends_at: toDbTime(o.endsAt),
        status: o.status,
        expires_at: toDbTime(o.expiresAt),
        created_at: toDbTime(o.createdAt),
        decided_at: o.decidedAt === null ? null : toDbTime(o.decidedAt),
        appointment_id: o.appointmentId,
      },
      ["request_id", "provider_id", "starts_at"],
    );
    return id === undefined ? undefined : { ...o, id };
  }

  async findOffer(organisationId: number, id: number): Promise<WaitlistOffer | undefined> {
    const row = await this.db
      .selectFrom("waitlist_offers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toOffer(row) : undefined;
  }

  async listOffers(organisationId: number, requestIds: readonly number[]): Promise<WaitlistOffer[]> {
    if (requestIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("waitlist_offers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("request_id", "in", [...requestIds])
      .orderBy("id", "desc")
      .execute();
    return rows.map(toOffer);
  }

  async requestsOfferedSlot(organisationId: number, providerId: number, startsAt: Date): Promise<number[]> {
    const rows = await this.db
      .selectFrom("waitlist_offers")
      .select("request_id")
      .where("organisation_id", "=", organisationId)
      .where("provider_id", "=", providerId)
      .where("starts_at", "=", toDbTime(startsAt))
      .execute();
    return rows.map((r) => Number(r.request_id));
  }

  async updateOffer(o: WaitlistOffer): Promise<void> {
    await this.db
      .updateTable("waitlist_offers")
      .set({
        status: o.status,
        decided_at: o.decidedAt === null ? null : toDbTime(o.decidedAt),
        appointment_id: o.appointmentId,
      })
      .where("organisation_id", "=", o.organisationId)
      .where("id", "=", o.id)
      .execute();
  }

  async listHolds(
    organisationId: number,
    providerIds: readonly number[],
    from: Date,
    to: Date,
    now: Date,
  ): Promise<WaitlistOffer[]> {
    if (providerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("waitlist_offers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("provider_id", "in", [...providerIds])
      .where("status", "=", "pending")
      .where("starts_at", "<", toDbTime(to))
      .where("ends_at", ">", toDbTime(from))
      .where("expires_at", ">", toDbTime(now))
      .execute();
    return rows.map(toOffer);
  }
}
