import type {
  Appointment,
  AppointmentHistoryEntry,
  AppointmentListCriteria,
  AppointmentRecord,
  AppointmentRepository,
  AppointmentStatus,
} from "@openpractice/core";
import type { Kysely, SelectQueryBuilder } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { appointmentMutableColumns, appointmentToRow, rowToAppointment } from "./appointment-rows.js";
import { insertReturningId } from "./insert-returning-id.js";

function applyFilters<O>(q: SelectQueryBuilder<Database, "appointments", O>, c: AppointmentListCriteria) {
  let out = q.where("appointments.organisation_id", "=", c.organisationId);
  if (c.startsFrom) out = out.where("appointments.starts_at", ">=", toDbTime(c.startsFrom));
  if (c.startsBefore) out = out.where("appointments.starts_at", "<", toDbTime(c.startsBefore));
  if (c.doctorId !== undefined) out = out.where("appointments.doctor_id", "=", c.doctorId);
  if (c.clinicId !== undefined) out = out.where("appointments.clinic_id", "=", c.clinicId);
  if (c.inClinics) out = out.where("appointments.clinic_id", "in", [...c.inClinics]);
  if (c.patientId !== undefined) out = out.where("appointments.patient_id", "=", c.patientId);
  if (c.serviceCaseId !== undefined) out = out.where("appointments.service_case_id", "=", c.serviceCaseId);
  if (c.statuses?.length) out = out.where("appointments.status", "in", c.statuses);
  const categoryId = c.categoryId;
  if (categoryId !== undefined) {
    out = out.where(({ exists, selectFrom }) =>
      exists(
        selectFrom("appointment_category_links as l")
          .select("l.appointment_id")
          .whereRef("l.appointment_id", "=", "appointments.id")
          .where("l.category_id", "=", categoryId),
      ),
    );
  }
  return out;
}

const SORT_COLUMNS = {
  start: "appointments.starts_at",
  created_at: "appointments.created_at",
  updated_at: "appointments.updated_at",
} as const;

export class KyselyAppointmentRepository implements AppointmentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async lockDoctorSchedule(organisationId: number, doctorId: number) {
    // An UPDATE takes the row's write lock on every engine (and SQLite's database write lock) until the transaction ends.
    const result = await this.db
      .updateTable("providers")
      .set((eb) => ({ schedule_version: eb("schedule_version", "+", 1) }))
      .where("organisation_id", "=", organisationId)
      .where("user_id", "=", doctorId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findOverlapping(q: {
    organisationId: number;
    doctorId: number;
    startsAt: Date;
    endsAt: Date;
    statuses: readonly AppointmentStatus[];
    exceptId?: number;
  }) {
    let query = this.db
      .selectFrom("appointments")
      .selectAll()
      .where("organisation_id", "=", q.organisationId)
      .where("doctor_id", "=", q.doctorId)
      .where("status", "in", [...q.statuses])
      .where("starts_at", "<", toDbTime(q.endsAt))
      .where("ends_at", ">", toDbTime(q.startsAt));
    if (q.exceptId !== undefined) query = query.where("id", "<>", q.exceptId);
    const row = await query.orderBy("starts_at").orderBy("id").limit(1).executeTakeFirst();
    return row ? rowToAppointment(row, await this.categoriesOf(Number(row.id))) : undefined;
  }

  async insert(record: AppointmentRecord): Promise<Appointment> {
    const id = await insertReturningId(this.db, this.profile, "appointments", appointmentToRow(record));
    await this.db
      .insertInto("appointment_category_links")
      .values(record.categoryIds.map((category_id) => ({ appointment_id: id, category_id })))
      .execute();
    return { ...record, id, categoryIds: [...record.categoryIds].sort((a, b) => a - b) };
  }

  private async categoriesOf(appointmentId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom("appointment_category_links")
      .select("category_id")
      .where("appointment_id", "=", appointmentId)
      .orderBy("category_id")
      .execute();
    return rows.map((r) => Number(r.category_id));
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("appointments")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? rowToAppointment(row, await this.categoriesOf(id)) : undefined;
  }

  async update(a: Appointment) {
    const result = await this.db
      .updateTable("appointments")
      .set({ ...appointmentMutableColumns(a), version: a.version + 1 })
      .where("organisation_id", "=", a.organisationId)
      .where("id", "=", a.id)
      .where("version", "=", a.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(c: AppointmentListCriteria) {
    const base = this.db.selectFrom("appointments");
    const direction = c.descending ? "desc" : "asc";
    const pageQuery = applyFilters(base.selectAll("appointments"), c)
      .orderBy(SORT_COLUMNS[c.sort ?? "start"], direction)
      .orderBy("appointments.id", direction)
      .limit(c.limit)
      .offset(c.offset);
    const countQuery = applyFilters(
      base.select((eb) => eb.fn.countAll().as("n")),
      c,
    );
    const [rows, counted] = await Promise.all([pageQuery.execute(), countQuery.executeTakeFirstOrThrow()]);
    const ids = rows.map((r) => Number(r.id));
    const links = ids.length
      ? await this.db
          .selectFrom("appointment_category_links")
          .select(["appointment_id", "category_id"])
          .where("appointment_id", "in", ids)
          .orderBy("category_id")
          .execute()
      : [];
    const byAppointment = new Map<number, number[]>();
    for (const l of links)
      byAppointment.set(Number(l.appointment_id), [
        ...(byAppointment.get(Number(l.appointment_id)) ?? []),
        Number(l.category_id),
      ]);
    return {
      appointments: rows.map((r) => rowToAppointment(r, byAppointment.get(Number(r.id)) ?? [])),
      total: Number(counted.n),
    };
  }

  async listHeldTimes(q: {
    organisationId: number;
    doctorIds: readonly number[];
    startsFrom: Date;
    startsBefore: Date;
    statuses: readonly AppointmentStatus[];
  }) {
    if (q.doctorIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("appointments")
      .select(["doctor_id", "clinic_id", "starts_at", "ends_at"])
      .where("organisation_id", "=", q.organisationId)
      .where("doctor_id", "in", [...q.doctorIds])
      .where("status", "in", [...q.statuses])
      .where("starts_at", ">=", toDbTime(q.startsFrom))
      .where("starts_at", "<", toDbTime(q.startsBefore))
      .execute();
    return rows.map((r) => ({
      doctorId: Number(r.doctor_id),
      clinicId: Number(r.clinic_id),
      startsAt: fromDbTime(r.starts_at),
      endsAt: fromDbTime(r.ends_at),
    }));
  }

  async appendHistory(e: AppointmentHistoryEntry) {
    await this.db
      .insertInto("appointment_history")
      .values({
        organisation_id: e.organisationId,
        appointment_id: e.appointmentId,
        action: e.action,
        from_status: e.fromStatus,
        to_status: e.toStatus,
        starts_at: toDbTime(e.startsAt),
        ends_at: toDbTime(e.endsAt),
        by_user_id: e.byUserId,
        at: toDbTime(e.at),
      })
      .execute();
  }

  async history(organisationId: number, appointmentId: number) {
    const rows = await this.db
      .selectFrom("appointment_history")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("appointment_id", "=", appointmentId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      organisationId: Number(r.organisation_id),
      appointmentId: Number(r.appointment_id),
      action: r.action,
      fromStatus: r.from_status as AppointmentStatus | null,
      toStatus: r.to_status as AppointmentStatus,
      startsAt: fromDbTime(r.starts_at),
      endsAt: fromDbTime(r.ends_at),
      byUserId: r.by_user_id === null ? null : Number(r.by_user_id),
      at: fromDbTime(r.at),
    }));
  }
}
