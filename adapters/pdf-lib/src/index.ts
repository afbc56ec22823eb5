export { PdfLibSummaryRenderer } from "./pdf-summary-renderer.js";
