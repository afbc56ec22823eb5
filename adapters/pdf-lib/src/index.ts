export { PdfLibSummaryRenderer } from "./pdf-summary-renderer.js";
export { ThreadedSummaryRenderer, type ThreadedSummaryRendererOptions } from "./threaded-summary-renderer.js";
