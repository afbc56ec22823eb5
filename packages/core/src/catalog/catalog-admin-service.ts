import { catalogError } from "./catalog-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { CatalogServiceRepositories } from "./catalog-service-repositories.js";
import type { AppointmentCategory, CancellationReason } from "./catalog.js";
import {
  type AppointmentTypeChanges,
  type AppointmentTypeDraft,
  assertValidAppointmentType,
  assertValidCancellationReason,
  type CancellationReasonChanges,
  type CancellationReasonDraft,
} from "./catalog-rules.js";

/** The organisation has no such appointment type (category). */
export const appointmentTypeNotFound = (id: unknown) =>
  catalogError("APPOINTMENT_TYPE_NOT_FOUND", "Appointment type not found", { appointment_type_id: id });
const typeNotFound = appointmentTypeNotFound;
const duplicateType = (existingId: number) =>
  catalogError("DUPLICATE_APPOINTMENT_TYPE", "The organisation already has an appointment type with this name", {
    existing_appointment_type_id: existingId,
  });
const reasonNotFound = (id: unknown) =>
  catalogError("CANCELLATION_REASON_NOT_FOUND", "Cancellation reason not found", { cancellation_reason_id: id });
const duplicateReason = (existingId: number) =>
  catalogError("DUPLICATE_CANCELLATION_REASON", "The organisation already has a cancellation reason with this key", {
    existing_cancellation_reason_id: existingId,
  });

/** An administrator's edits of the reference data booking and cancelling use: appointment types and cancellation reasons. */
export class CatalogAdminService {
  constructor(private readonly deps: { storage: Storage<CatalogServiceRepositories>; clock: Clock }) {}

  async createAppointmentType(principal: Principal, draft: AppointmentTypeDraft): Promise<AppointmentCategory> {
    assertValidAppointmentType(draft, true);
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, principal.organisationId, this.deps.clock.now());
      const result = await tx.catalog.insertAppointmentCategory({
        organisationId: principal.organisationId,
        name: draft.name.trim(),
        type: draft.type,
        durationMinutes: draft.durationMinutes,
        colour: draft.colour ?? null,
        active: true,
      });
      if (!result.created) throw duplicateType(result.existingId);
      return result.category;
    });
  }

  async appointmentType(principal: Principal, id: number): Promise<AppointmentCategory> {
    const found = await this.deps.storage.repositories.catalog.findAppointmentCategory(principal.organisationId, id);
    if (!found) throw typeNotFound(id);
    return found;
  }

  async updateAppointmentType(
    principal: Principal,
    id: number,
    changes: AppointmentTypeChanges,
  ): Promise<AppointmentCategory> {
    assertValidAppointmentType(changes, false);
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.catalog.findAppointmentCategory(principal.organisationId, id);
      if (!current) throw typeNotFound(id);
      const next: AppointmentCategory = {
        ...current,
        name: changes.name?.trim() ?? current.name,
        type: changes.type ?? current.type,
        durationMinutes: changes.durationMinutes ?? current.durationMinutes,
        colour: changes.colour === undefined ? current.colour : changes.colour,
        active: changes.active ?? current.active,
      };
      const result = await tx.catalog.updateAppointmentCategory(next);
      if (!result.updated) throw duplicateType(result.existingId);
      return next;
    });
  }

  async createCancellationReason(principal: Principal, draft: CancellationReasonDraft): Promise<CancellationReason> {
    assertValidCancellationReason(draft, true);
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, principal.organisationId, this.deps.clock.now());
      const result = await tx.catalog.insertCancellationReason({
        organisationId: principal.organisationId,
        reasonKey: draft.reasonKey,
        reasonLabel: draft.reasonLabel.trim(),
        cancellationFee: draft.cancellationFee ?? 0,
        status: "ACTIVE",
      });
      if (!result.created) throw duplicateReason(result.existingId);
      return result.reason;
    });
  }

  /** Label, default fee and status; the key is what cancellations name, so it stays. */
  async updateCancellationReason(
    principal: Principal,
    id: number,
    changes: CancellationReasonChanges,
  ): Promise<CancellationReason> {
    assertValidCancellationReason(changes, false);
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.catalog.findCancellationReason(principal.organisationId, id);
      if (!current) throw reasonNotFound(id);
      const next: CancellationReason = {
        ...current,
        reasonLabel: changes.reasonLabel?.trim() ?? current.reasonLabel,
        cancellationFee: changes.cancellationFee ?? current.cancellationFee,
        status: changes.status ?? current.status,
      };
      await tx.catalog.updateCancellationReason(next);
      return next;
    });
  }
}
