import type { SoapDocument, SummaryVariant } from "./soap-summary.js";

/** Rendered note summaries (PDF bytes), one per note and variant. */
export interface SoapDocumentRepository {
  /** Stores the document, replacing an earlier rendering of the same note and variant. */
  put(document: SoapDocument): Promise<void>;
  get(organisationId: number, contextId: string, variant: SummaryVariant): Promise<SoapDocument | undefined>;
}
