import { eligibilityEvent } from "./eligibility-events.js";
import { eligibilityError } from "./eligibility-errors.js";
import { patientError } from "../patients/patient-errors.js";
import type { Principal } from "../auth/principal.js";
import type { InsuranceCard } from "../coverages/coverage.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { coverageOfPatient } from "../coverages/patient-coverage.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import { toPageWindow } from "../kernel/paging.js";
import { type EligibilityGateway, EligibilityGatewayError } from "./eligibility-gateway.js";
import type { Storage } from "../kernel/storage.js";
import type { ClearinghouseConnection } from "./clearinghouse-connection.js";
import type { EligibilityServiceRepositories } from "./eligibility-service-repositories.js";
import {
  ELIGIBILITY_SERVICE_TYPES,
  type EligibilityCheck,
  type EligibilityCheckRecord,
  type EligibilityExchange,
  type EligibilityInquiry,
  type EligibilityResult,
  type EligibilityServiceType,
  rejectionDetails,
} from "./eligibility.js";
import { eligibilityResultIssues } from "./eligibility-rules.js";
import { type EligibilityWarning, eligibilityWarnings } from "./eligibility-warnings.js";
import type { CaseView } from "../cases/case-service.js";

/** A result taken by phone or from a portal, recorded by hand (v1, spec 9). */
export interface ManualEligibility {
  serviceDate?: string | undefined;
  result: EligibilityResult;
  reference?: string | null | undefined;
  notes?: string | null | undefined;
}

const FAILURE_CODES = {
  timeout: "ELIGIBILITY_TIMEOUT",
  unavailable: "ELIGIBILITY_UNAVAILABLE",
  invalid_response: "ELIGIBILITY_INVALID_RESPONSE",
} as const;

/**
 * Eligibility of a patient's coverage: real-time checks through the configured gateway (every one kept, with the
 * documents exchanged, whatever the outcome), history, and results recorded by hand. Each check writes
 * coverage.eligibility_checked in the transaction that records it.
 */
export class EligibilityService {
  constructor(
    private readonly deps: {
      storage: Storage<EligibilityServiceRepositories>;
      clock: Clock;
      gateway: EligibilityGateway | null;
      /** The clearinghouse the organisation set through the API, if any (it wins over the gateway's default). */
      connectionFor?: (organisationId: number) => Promise<ClearinghouseConnection | undefined>;
    },
  ) {}

  private async coverageOf(
    r: EligibilityServiceRepositories,
    principal: Principal,
    patientId: number,
    coverageId: number,
  ) {
    const patient = Number.isSafeInteger(patientId)
      ? await r.patients.findById(principal.organisationId, patientId)
      : undefined;
    if (!patient) throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: patientId });
    return { patient, coverage: await coverageOfPatient(r, principal.organisationId, patientId, coverageId) };
  }

  private today(): string {
    return this.deps.clock.now().toISOString().slice(0, 10);
  }

  /**
   * Asks the payer now. Resolves with the check when the payer answered with benefits; a payer's AAA rejection is
   * kept and thrown as ELIGIBILITY_REJECTED (details: check_id, rejections); no answer is kept and thrown as
   * ELIGIBILITY_TIMEOUT, ELIGIBILITY_UNAVAILABLE or ELIGIBILITY_INVALID_RESPONSE.
   */
  async check(
    principal: Principal,
    patientId: number,
    coverageId: number,
    options: { serviceDate?: string | undefined; serviceTypes?: readonly EligibilityServiceType[] | undefined } = {},
  ): Promise<EligibilityCheck> {
    const serviceDate = options.serviceDate ?? this.today();
    const issues: ValidationIssue[] = [];
    if (!isCalendarDate(serviceDate))
      issues.push({ field: "serviceDate", reason: "must be a date as YYYY-MM-DD", value: serviceDate });
    const serviceTypes = options.serviceTypes ?? ELIGIBILITY_SERVICE_TYPES;
    if (serviceTypes.length === 0 || serviceTypes.some((t) => !ELIGIBILITY_SERVICE_TYPES.includes(t)))
      issues.push({ field: "serviceTypes", reason: `must list some of ${ELIGIBILITY_SERVICE_TYPES.join(", ")}` });
    if (issues.length > 0) throw DomainError.validation(issues);
    const { patient, coverage } = await this.coverageOf(
      this.deps.storage.repositories,
      principal,
      patientId,
      coverageId,
    );
    if (!coverage.payer.payerId)
      throw DomainError.validation([
        {
          field: "payerRef",
          reason: "the coverage's payer has no payer id to address a 270 to: give the coverage a payer of the registry",
        },
      ]);
    const gateway = this.deps.gateway;
    if (!gateway)
      throw eligibilityError(
        "ELIGIBILITY_NOT_CONFIGURED",
        "Real-time eligibility is not configured for this organisation; record results by hand on v1",
        {},
      );
    const base = this.record(principal, coverage, serviceDate);
    const inquiry: EligibilityInquiry = {
      traceNumber: `${coverage.id}-${this.deps.clock.now().getTime()}`,
      serviceDate,
      serviceTypes: [...serviceTypes],
      coverage,
      patient: { firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth },
    };
    const exchange = await this.ask(gateway, principal.organisationId, inquiry, base);
    const status = exchange.result ? (exchange.result.active ? "active" : "inactive") : "rejected";
    const saved = await this.save({
      ...base,
      status,
      result: exchange.result,
      rejections: exchange.rejections,
      request: exchange.request,
      response: exchange.response,
    });
    if (status !== "rejected") return saved;
    const first = exchange.rejections[0];
    throw eligibilityError(
      "ELIGIBILITY_REJECTED",
      `The payer rejected the inquiry: ${exchange.rejections.map((r) => `${r.code} ${r.reason}`).join("; ")}`,
      {
        check_id: saved.id,
        rejections: exchange.rejections.map((r) => rejectionDetails(r, saved.checkedAt)),
        ...(first ? { code: first.code } : {}),
      },
    );
  }

  /** The gateway's answer; no answer is kept as a failed check and thrown as its code. */
  private async ask(
    gateway: EligibilityGateway,
    organisationId: number,
    inquiry: EligibilityInquiry,
    base: EligibilityCheckRecord,
  ): Promise<EligibilityExchange> {
    try {
      const connection = await this.deps.connectionFor?.(organisationId);
      return await gateway.check(organisationId, inquiry, connection);
    } catch (error) {
      if (!(error instanceof EligibilityGatewayError)) throw error;
      if (error.kind === "not_configured") throw eligibilityError("ELIGIBILITY_NOT_CONFIGURED", error.message, {});
      const code = FAILURE_CODES[error.kind];
      const saved = await this.save({
        ...base,
        status: "failed",
        errorCode: code,
        errorMessage: error.message,
        request: error.request,
        response: error.response,
      });
      throw eligibilityError(code, error.message, { check_id: saved.id });
    }
  }

  /** A result taken outside the system (a phone call, a payer portal). */
  async recordManual(
    principal: Principal,
    patientId: number,
    coverageId: number,
    sent: ManualEligibility,
  ): Promise<EligibilityCheck> {
    const serviceDate = sent.serviceDate ?? this.today();
    const issues = eligibilityResultIssues(sent.result);
    if (!isCalendarDate(serviceDate))
      issues.push({ field: "serviceDate", reason: "must be a date as YYYY-MM-DD", value: serviceDate });
    for (const f of ["reference", "notes"] as const) {
      const v = sent[f];
      if (v != null && (typeof v !== "string" || v.length > (f === "notes" ? 2000 : 100)))
        issues.push({ field: f, reason: `must be at most ${f === "notes" ? 2000 : 100} characters` });
    }
    if (issues.length > 0) throw DomainError.validation(issues);
    const { coverage } = await this.coverageOf(this.deps.storage.repositories, principal, patientId, coverageId);
    return this.save({
      ...this.record(principal, coverage, serviceDate),
      source: "manual",
      status: sent.result.active ? "active" : "inactive",
      result: sent.result,
      reference: sent.reference?.trim() || null,
      notes: sent.notes?.trim() || null,
    });
  }

  /** A coverage's checks, newest first, a page at a time. */
  async history(
    principal: Principal,
    patientId: number,
    coverageId: number,
    q: { page?: number | undefined; size?: number | undefined },
  ) {
    const r = this.deps.storage.repositories;
    await this.coverageOf(r, principal, patientId, coverageId);
    const { page, size, limit, offset } = toPageWindow(q.page, q.size);
    const found = await r.eligibilityChecks.listByCoverage(principal.organisationId, coverageId, { limit, offset });
    return { ...found, page, size };
  }

  /** Warnings on a case from the newest answered check of each coverage it points to (eligibilityWarnings). */
  async caseWarnings(view: CaseView): Promise<EligibilityWarning[]> {
    const c = view.patientCase;
    const checks = await this.deps.storage.repositories.eligibilityChecks.latestAnswered(
      c.organisationId,
      c.insuranceCards.map((card) => card.id),
    );
    return eligibilityWarnings(c, view.visits, checks);
  }

  private record(principal: Principal, coverage: InsuranceCard, serviceDate: string): EligibilityCheckRecord {
    return {
      organisationId: principal.organisationId,
      patientId: coverage.patientId,
      coverageId: coverage.id,
      source: "realtime",
      status: "failed",
      serviceDate,
      result: null,
      rejections: [],
      errorCode: null,
      errorMessage: null,
      request: null,
      response: null,
      reference: null,
      notes: null,
      checkedBy: principal.userId,
      checkedAt: this.deps.clock.now(),
    };
  }

  private async save(record: EligibilityCheckRecord): Promise<EligibilityCheck> {
    return this.deps.storage.transaction(async (tx) => {
      const id = await tx.eligibilityChecks.insert(record);
      await tx.outbox.append(
        eligibilityEvent(
          "coverage.eligibility_checked",
          {
            organisation_id: record.organisationId,
            patient_id: record.patientId,
            coverage_id: record.coverageId,
            eligibility_check_id: id,
          },
          record.checkedAt,
        ),
      );
      return { ...record, id };
    });
  }
}
