import type { BillingGateway } from "../billing/billing-gateway.js";
import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { PlanOfCareRepository } from "./plan-of-care-repository.js";
import type { SoapDocumentRepository } from "./soap-document-repository.js";
import type { SoapNoteRepository } from "./soap-note-repository.js";
import type { SoapServiceRepositories } from "./soap-service-repositories.js";
import type { TreatmentSheetRepository } from "./treatment-sheet-repository.js";
import { PermanentJobFailure } from "../kernel/job-handler.js";
import { SoapDocumentService } from "./soap-document-service.js";
import { SOAP_ERROR_CODES } from "./soap-errors.js";
import { SOAP_EVENTS } from "./soap-events.js";
import { SoapNoteService } from "./soap-note-service.js";
import type { SoapSummaryRenderer } from "./soap-summary.js";
import { SOAP_SUMMARY_QUEUE, SoapWorkflowService } from "./soap-workflow-service.js";
import { summaryFailureReason } from "./summary-status.js";
import { soapSummaryPath } from "./summary-link.js";
import { TreatmentSheetService } from "./treatment-sheet-service.js";

/** What the SOAP services read of the practice's settings: where claims go, and the renderer set at start. */
export interface SoapSettings {
  readonly billingGateway: BillingGateway;
  readonly outbound: { readonly summaryRenderer?: SoapSummaryRenderer | undefined };
}

/** SOAP notes: forms, treatment sheets, signing and completion (PDF summary, billing, plan of care). */
export const soapModule = defineCoreModule({
  key: "soap",
  repositories: owns<{
    soapNotes: SoapNoteRepository;
    treatmentSheets: TreatmentSheetRepository;
    plansOfCare: PlanOfCareRepository;
    soapDocuments: SoapDocumentRepository;
  }>(),
  createServices: ({ storage, clock, ids, settings }: ModuleDependencies<SoapServiceRepositories, SoapSettings>) => ({
    soapNotes: new SoapNoteService({ storage, clock, ids }),
    soapWorkflow: new SoapWorkflowService({ storage, clock, billingGateway: settings.billingGateway }),
    soapDocuments: new SoapDocumentService({ storage, clock, renderer: () => settings.outbound.summaryRenderer }),
    treatmentSheets: new TreatmentSheetService({ storage, clock }),
  }),
  errorCodes: SOAP_ERROR_CODES,
  events: SOAP_EVENTS,
  jobs: ({ soapDocuments }) => ({
    // Renders a completed note's PDF summaries, linked where the v1 API serves them. A render that throws fails the
    // summary and the job at once (it would throw every time); a store that fails is retried with the runner's
    // backoff, and the summary is FAILED with the last reason when the attempts run out.
    [SOAP_SUMMARY_QUEUE]: async (job, context) => {
      const { organisationId, contextId } = job.payload as { organisationId: number; contextId: string };
      let done: Awaited<ReturnType<typeof soapDocuments.render>>;
      try {
        done = await soapDocuments.render(Number(organisationId), String(contextId), soapSummaryPath);
      } catch (error) {
        if (context.finalAttempt) {
          const reason = `gave up after ${job.attempts} attempts: ${summaryFailureReason(error)}`;
          await soapDocuments.markFailed(Number(organisationId), String(contextId), reason);
        }
        throw error;
      }
      if (done.outcome === "failed") throw new PermanentJobFailure(done.reason);
    },
  }),
});
