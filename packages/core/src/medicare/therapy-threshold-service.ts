import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import { amountToCents } from "../billing/fee-schedule.js";
import { localDate } from "../cases/visit-tracking.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import { patientError } from "../patients/patient-errors.js";
import { partBAmong, visitCards } from "./medicare-coverage.js";
import { medicareEvent } from "./medicare-events.js";
import type { MedicareServiceRepositories } from "./medicare-service-repositories.js";
import type { LedgerRead } from "./therapy-charge-repository.js";
import {
  type IncurredElsewhereDraft,
  incurredElsewhereIssues,
  THERAPY_BUCKETS,
  type TherapyCharge,
} from "./therapy-charge.js";
import { type TherapyBucket, thresholdsOf } from "./therapy-thresholds.js";
import { checkVisitThresholds, type VisitLineInput, type VisitThresholdCheck } from "./visit-thresholds.js";
import { type AssistantKind, assistantOfCredentials } from "./therapy-discipline.js";
import { certificationState } from "./plan-certification.js";

/** A visit as the threshold rules read it: a note's keys and service time. */
export interface TherapyVisit {
  organisationId: number;
  patientId: number;
  clinicId: number;
  serviceCaseId: number | null;
  contextId: string;
  serviceDateTime: Date;
  /** The rendering provider's user id: minutes of a line nobody else is named for are theirs. */
  renderingPhysician: number;
  /** The note's type: an evaluation (INITIAL_SOAP) sets a new plan, so its old plan's certification is not warned of. */
  type?: string | undefined;
}

/** A treatment line as the Medicare rules read it, with its minutes by provider. */
export interface SheetLine extends Omit<VisitLineInput, "assistant"> {
  providedBy?: ReadonlyArray<{ userId: number; minutes: number }> | undefined;
}

/** A patient's year as GET …/therapy-thresholds answers it. */
export interface TherapyYear {
  patientId: number;
  year: number;
  thresholds: { kxCents: number; reviewCents: number } | null;
  buckets: Record<
    TherapyBucket,
    { incurredCents: number; kxRemainingCents: number | null; reviewRemainingCents: number | null }
  >;
  charges: TherapyCharge[];
}

const THERAPY_RECORD = "a patient's Medicare therapy year";

/** The clinic-local service date of a visit. */
async function serviceDateOf(r: MedicareServiceRepositories, v: TherapyVisit): Promise<string> {
  const clinic = await r.organisations.findClinic(v.organisationId, v.clinicId);
  return localDate(v.serviceDateTime, clinic?.timeZone ?? "UTC");
}

/**
 * Each line's assistant minutes: those of providers whose credentials name a therapy assistant, and the minutes
 * nobody is named for when the rendering provider is one. The kind with the most minutes counts.
 */
async function withAssistants(
  r: MedicareServiceRepositories,
  visit: TherapyVisit,
  lines: readonly SheetLine[],
): Promise<VisitLineInput[]> {
  const users = new Set([visit.renderingPhysician, ...lines.flatMap((l) => (l.providedBy ?? []).map((p) => p.userId))]);
  const kinds = new Map<number, AssistantKind | undefined>();
  for (const userId of users) {
    const provider = await r.organisations.findProvider(visit.organisationId, userId);
    kinds.set(userId, provider ? assistantOfCredentials(provider.credentials) : undefined);
  }
  return lines.map(({ providedBy = [], ...line }) => {
    const minutes: Partial<Record<AssistantKind, number>> = {};
    const add = (kind: AssistantKind | undefined, n: number) => {
      if (kind) minutes[kind] = (minutes[kind] ?? 0) + n;
    };
    for (const p of providedBy) add(kinds.get(p.userId), p.minutes);
    add(kinds.get(visit.renderingPhysician), line.duration - providedBy.reduce((sum, p) => sum + p.minutes, 0));
    const [kind, most] =
      (Object.entries(minutes) as Array<[AssistantKind, number]>).sort((a, b) => b[1] - a[1])[0] ?? [];
    return kind && most ? { ...line, assistant: { kind, minutes: most } } : line;
  });
}

/**
 * The threshold rules of one visit of a Medicare Part B beneficiary, or undefined when the visit is not billed to
 * Medicare Part B (no rule fires then). Reads the coverage, the year's incurred amounts up to the visit's date, the
 * fees of its codes and, when KX is proposed, the plan of care's medical-necessity justification.
 */
export async function visitThresholdCheck(
  r: MedicareServiceRepositories,
  visit: TherapyVisit,
  lines: readonly SheetLine[],
  /** `plain` outside a transaction (a sheet's answer after its commit): it never waits behind a completion's lock. */
  read: LedgerRead = "latest",
  serviceDate?: string,
): Promise<MedicareVisitCheck | undefined> {
  // Independent reads side by side: on a pool (a read outside a transaction) they go out at once.
  const [day, cards] = await Promise.all([serviceDate ?? serviceDateOf(r, visit), visitCards(r, visit)]);
  if (!(await partBAmong(r, visit.organisationId, cards, day))) return undefined;
  const year = Number(day.slice(0, 4));
  const [prior, fees, plan, withShares] = await Promise.all([
    r.therapyCharges.totals(visit.organisationId, visit.patientId, year, day, read),
    r.feeSchedules.allowedCents(visit.organisationId, year, [...new Set(lines.map((l) => l.code))]),
    r.plansOfCare.findFor(visit.organisationId, visit.patientId, visit.serviceCaseId),
    withAssistants(r, visit, lines),
  ]);
  const check = checkVisitThresholds(year, prior, withShares, fees, plan?.discipline ?? null);
  if (check.lines.some((l) => l.kxProposed)) {
    if (!plan?.medicalNecessity)
      check.warnings.push({
        code: "MEDICAL_NECESSITY_MISSING",
        message:
          "services past the KX threshold need the plan of care's medical-necessity justification (medical_necessity in the evaluation's Plan form)",
      });
  }
  if (plan && visit.type !== "INITIAL_SOAP") {
    const certification = certificationState(plan, day);
    if (certification.status === "LAPSED")
      check.warnings.push({
        code: "CERTIFICATION_LAPSED",
        message:
          plan.certifiedOn === null
            ? `the plan of care was not certified by ${certification.dueDate} (30 days after the evaluation): services after that need the physician's or NPP's certification`
            : `the plan of care's certification ended on ${certification.dueDate}: services after it need a recertified plan (a re-evaluation, then certification)`,
      });
    else if (certification.status === "DUE_SOON" || certification.status === "RECERT_DUE")
      check.warnings.push({
        code: "CERTIFICATION_DUE",
        message:
          certification.status === "DUE_SOON"
            ? `the plan of care needs the physician's or NPP's certification by ${certification.dueDate}`
            : `the plan of care's certification ends on ${certification.dueDate}: recertify it`,
      });
  }
  return { ...check, serviceDate: day };
}

/** A visit's check with the clinic-local service date it was made for. */
export type MedicareVisitCheck = VisitThresholdCheck & { serviceDate: string };

/**
 * At a note's completion, in its transaction: the billed lines of a Medicare Part B visit are counted towards the
 * year (one charge per counted line, with the fee and the KX decision of that moment), and the review event is
 * written when the visit takes a bucket's year past the review threshold. Nothing for other visits.
 */
export async function recordCompletedVisit(
  r: MedicareServiceRepositories,
  visit: TherapyVisit,
  check: MedicareVisitCheck,
  lines: readonly SheetLine[],
  now: Date,
): Promise<void> {
  const before = await r.therapyCharges.totals(visit.organisationId, visit.patientId, check.year);
  const charges = check.lines.flatMap((l): Omit<TherapyCharge, "id">[] =>
    l.bucket === null
      ? []
      : [
          {
            organisationId: visit.organisationId,
            patientId: visit.patientId,
            year: check.year,
            bucket: l.bucket,
            source: "visit",
            contextId: visit.contextId,
            serviceDate: check.serviceDate,
            code: l.code,
            units: lines[l.index]!.units,
            allowedCents: l.allowedCents ?? 0,
            priced: l.allowedCents !== null,
            kx: l.kxProposed,
            description: null,
            recordedBy: null,
            createdAt: now,
          },
        ],
  );
  if (charges.length) await r.therapyCharges.insert(charges);
  const added = Object.fromEntries(THERAPY_BUCKETS.map((b) => [b, check.buckets[b].visitCents])) as BucketCents;
  await appendReviewCrossings(r, { ...visit, soapNoteId: visit.contextId }, check.year, before, added, now);
}

type BucketCents = Record<TherapyBucket, number>;

/**
 * The review event for each bucket that `added` takes from at or under the year's review threshold to past it:
 * once per patient, year and bucket, since a later amount starts above it (the caller holds the patient's lock, so
 * two writers cannot both start under it). Nothing for a year without thresholds.
 */
async function appendReviewCrossings(
  r: Pick<MedicareServiceRepositories, "outbox">,
  by: { organisationId: number; patientId: number; soapNoteId: string | null },
  year: number,
  before: BucketCents,
  added: BucketCents,
  now: Date,
): Promise<void> {
  const thresholds = thresholdsOf(year);
  if (!thresholds) return;
  for (const bucket of THERAPY_BUCKETS) {
    const after = before[bucket] + added[bucket];
    if (before[bucket] <= thresholds.reviewCents && after > thresholds.reviewCents)
      await r.outbox.append(
        medicareEvent(
          "medicare.review_threshold_reached",
          {
            organisation_id: by.organisationId,
            patient_id: by.patientId,
            soap_note_id: by.soapNoteId,
            year,
            bucket,
            incurred_cents: after,
            threshold_cents: thresholds.reviewCents,
          },
          now,
        ),
      );
  }
}

/** A patient's therapy thresholds by year, and the amounts the clinic records as incurred elsewhere. */
export class TherapyThresholdService {
  constructor(private readonly deps: { storage: Storage<MedicareServiceRepositories>; clock: Clock }) {}

  private async patient(r: MedicareServiceRepositories, principal: Principal, patientId: number) {
    assertWithinCallerClinics(principal, [], THERAPY_RECORD);
    const patient = Number.isSafeInteger(patientId)
      ? await r.patients.findById(principal.organisationId, patientId)
      : undefined;
    if (!patient) throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: patientId });
    return patient;
  }

  /** Both buckets of the year: incurred, what remains to the KX and review thresholds, and the charges that count. */
  async year(principal: Principal, patientId: number, year: number): Promise<TherapyYear> {
    if (!Number.isSafeInteger(year) || year < 2000 || year > 2100)
      throw DomainError.validation([{ field: "year", reason: "must be a calendar year, 2000 to 2100", value: year }]);
    const r = this.deps.storage.repositories;
    await this.patient(r, principal, patientId);
    const charges = await r.therapyCharges.list(principal.organisationId, patientId, year);
    const thresholds = thresholdsOf(year) ?? null;
    const buckets = {} as TherapyYear["buckets"];
    for (const bucket of THERAPY_BUCKETS) {
      const incurredCents = charges.filter((c) => c.bucket === bucket).reduce((sum, c) => sum + c.allowedCents, 0);
      buckets[bucket] = {
        incurredCents,
        kxRemainingCents: thresholds ? Math.max(0, thresholds.kxCents - incurredCents) : null,
        reviewRemainingCents: thresholds ? Math.max(0, thresholds.reviewCents - incurredCents) : null,
      };
    }
    return { patientId, year, thresholds, buckets, charges };
  }

  /** Records an amount incurred elsewhere this year (another provider's therapy the payer counts). */
  async recordIncurredElsewhere(
    principal: Principal,
    patientId: number,
    draft: IncurredElsewhereDraft,
  ): Promise<TherapyCharge> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // An unknown patient is not found whatever the body says (the path names the record first).
      await this.patient(tx, principal, patientId);
      const issues = incurredElsewhereIssues(draft);
      if (issues.length) throw DomainError.validation(issues);
      const charge: Omit<TherapyCharge, "id"> = {
        organisationId: principal.organisationId,
        patientId,
        year: Number(draft.serviceDate.slice(0, 4)),
        bucket: draft.bucket as TherapyBucket,
        source: "elsewhere",
        contextId: null,
        serviceDate: draft.serviceDate,
        code: null,
        units: 0,
        allowedCents: amountToCents(draft.amount),
        priced: true,
        kx: false,
        description: draft.description?.trim() || null,
        recordedBy: principal.userId,
        createdAt: now,
      };
      // As a completion does: the patient's year read and written one writer at a time, so a crossing is seen once.
      await tx.therapyCharges.lockPatient(principal.organisationId, patientId);
      const before = await tx.therapyCharges.totals(principal.organisationId, patientId, charge.year);
      const [stored] = await tx.therapyCharges.insert([charge]);
      if (!stored) throw new Error("the amount incurred elsewhere was not stored");
      const added = Object.fromEntries(
        THERAPY_BUCKETS.map((b) => [b, b === charge.bucket ? charge.allowedCents : 0]),
      ) as BucketCents;
      await appendReviewCrossings(
        tx,
        { organisationId: principal.organisationId, patientId, soapNoteId: null },
        charge.year,
        before,
        added,
        now,
      );
      return stored;
    });
  }
}
