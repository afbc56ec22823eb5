import type { SummaryVariant } from "./soap-summary.js";

/** The file each summary is served as under /apis/v1/soap-context/{context_id}/ (spec 7.1's summary links). */
export const SOAP_SUMMARY_FILES: Readonly<Record<SummaryVariant, string>> = Object.freeze({
  full: "summary.pdf",
  short: "short-summary.pdf",
});

/**
 * Where the API serves a note's summaries, relative to its base URL; stored on
 * the note as summary_doc_url and short_summary_url once rendered. It lives in
 * core because the summary job stores it, wherever that job runs.
 */
export const soapSummaryPath = (contextId: string, variant: SummaryVariant) =>
  `/apis/v1/soap-context/${encodeURIComponent(contextId)}/${SOAP_SUMMARY_FILES[variant]}`;
