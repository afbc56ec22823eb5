import type { SoapSummary, SummaryVariant } from "@openpractice/core";
import { PdfLibSummaryRenderer } from "./pdf-summary-renderer.js";

/** What the threaded renderer posts to its worker thread: plain data, copied by structured clone. */
export interface SummaryRenderTask {
  summary: SoapSummary;
  variant: SummaryVariant;
}

const renderer = new PdfLibSummaryRenderer();

/** The worker thread's task (tinypool calls the default export): the same renderer, off the serving event loop. */
export default function renderSummary(task: SummaryRenderTask): Promise<Uint8Array> {
  return renderer.render(task.summary, task.variant);
}
