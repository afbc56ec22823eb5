import { appointmentError } from "../appointments/appointment-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { BillingServiceRepositories } from "./billing-service-repositories.js";
import {
  assertValidBillingCodes,
  billingCodeApplies,
  normaliseBillingCodes,
  type BillingCode,
  type BillingCodeDraft,
} from "./billing-code.js";

export interface CatalogQuery {
  appointmentId: number;
  speciality: string;
  icdCodes?: string[] | undefined;
  soapNoteType?: string | undefined;
  clinicId?: number | undefined;
  payerType?: string | undefined;
  payerId?: string | undefined;
  planType?: string | undefined;
}

/** The organisation's billing-code catalog: maintained by an admin upload or the CLI, read per visit. */
export class BillingCatalogService {
  constructor(private readonly deps: { storage: Storage<BillingServiceRepositories>; clock: Clock }) {}

  /** Inserts or replaces codes by their number; the whole upload is checked first and written in one transaction. */
  /**
   * Upserts the organisation's codes by number after checking them all (a bad one: nothing written). The API sends
   * one transaction; the CLI import passes `batchSize`, so a long import commits in parts and other writers
   * interleave (running it again completes an import stopped midway). `onProgress` hears the codes written.
   */
  async upsert(
    principal: Principal,
    sent: BillingCodeDraft[],
    options: { batchSize?: number | undefined; onProgress?: ((done: number, total: number) => void) | undefined } = {},
  ): Promise<{ created: number; updated: number }> {
    const drafts = normaliseBillingCodes(sent);
    assertValidBillingCodes(drafts);
    const now = this.deps.clock.now();
    const size = options.batchSize ?? Math.max(drafts.length, 1);
    const total = { created: 0, updated: 0 };
    for (let start = 0; start < Math.max(drafts.length, 1); start += size) {
      const done = await this.upsertPart(principal, drafts.slice(start, start + size), now);
      total.created += done.created;
      total.updated += done.updated;
      options.onProgress?.(Math.min(start + size, drafts.length), drafts.length);
    }
    return total;
  }

  private upsertPart(principal: Principal, drafts: BillingCodeDraft[], now: Date) {
    return this.deps.storage.transaction(async (tx) => {
      await tx.organisations.ensure({
        id: principal.organisationId,
        name: principal.organisationName ?? `Organisation ${principal.organisationId}`,
        plan: "free",
        now,
      });
      return tx.billingCodes.upsert(
        principal.organisationId,
        drafts.map((d) => ({
          code: d.code,
          description: d.description.trim(),
          timed: d.timed,
          modifiers: d.modifiers ?? [],
          specialities: d.specialities ?? [],
          noteTypes: d.noteTypes ?? [],
          payerIds: d.payerIds ?? [],
          active: d.active ?? true,
          updatedAt: now,
        })),
        now,
      );
    });
  }

  /** The whole catalog, in code order. */
  applicableAll(principal: Principal): Promise<BillingCode[]> {
    return this.deps.storage.repositories.billingCodes.list(principal.organisationId);
  }

  /**
   * GET /apis/v1/treatment-catalog/latest: the active codes that apply to the
   * appointment's visit for the speciality, note type and payer. The appointment
   * must exist in the organisation (4004 otherwise).
   */
  async applicable(principal: Principal, q: CatalogQuery): Promise<BillingCode[]> {
    const r = this.deps.storage.repositories;
    const appointment = await r.appointments.findById(principal.organisationId, q.appointmentId);
    if (!appointment || !clinicAccess(principal).canSee(appointment.clinicId))
      throw appointmentError("APPOINTMENT_NOT_FOUND", "Appointment not found", { appointment_id: q.appointmentId });
    const codes = await r.billingCodes.list(principal.organisationId);
    return codes.filter((c) =>
      billingCodeApplies(c, { speciality: q.speciality, noteType: q.soapNoteType, payerId: q.payerId }),
    );
  }
}
