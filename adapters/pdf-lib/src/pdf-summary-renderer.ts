import type { SoapSummary, SoapSummaryRenderer, SummaryVariant } from "@openpractice/core";
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";
import { drawable, wrap } from "./text-layout.js";

/** US Letter in points, with 54 pt (3/4 in) margins. */
const PAGE = { width: 612, height: 792, margin: 54 };
const SIZE = { title: 16, heading: 11, body: 9.5, small: 7.5 };
const GREY = rgb(0.35, 0.35, 0.35);

/** Writes lines top to bottom, starting new pages as needed (the short variant stops at the first page instead). */
class PageWriter {
  private page: PDFPage;
  private y: number;
  /** Set when the short variant ran out of room. */
  truncated = false;

  constructor(
    private readonly doc: PDFDocument,
    private readonly fonts: { regular: PDFFont; bold: PDFFont },
    private readonly onePage: boolean,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  private room(height: number): boolean {
    if (this.y - height >= PAGE.margin + 14) return true;
    if (this.onePage) {
      this.truncated = true;
      return false;
    }
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
    return true;
  }

  text(
    text: string,
    o: { size?: number; bold?: boolean; indent?: number; color?: ReturnType<typeof rgb>; gapAfter?: number } = {},
  ): void {
    const size = o.size ?? SIZE.body;
    const font = o.bold ? this.fonts.bold : this.fonts.regular;
    const indent = o.indent ?? 0;
    for (const line of wrap(font, drawable(font, text), size, PAGE.width - 2 * PAGE.margin - indent)) {
      if (this.truncated || !this.room(size * 1.35)) return;
      this.y -= size * 1.35;
      this.page.drawText(line, {
        x: PAGE.margin + indent,
        y: this.y,
        size,
        font,
        ...(o.color ? { color: o.color } : {}),
      });
    }
    this.y -= o.gapAfter ?? 0;
  }

  heading(text: string): void {
    this.y -= 6;
    this.text(text, { size: SIZE.heading, bold: true, gapAfter: 2 });
  }

  rule(): void {
    if (this.truncated || !this.room(8)) return;
    this.y -= 4;
    this.page.drawLine({
      start: { x: PAGE.margin, y: this.y },
      end: { x: PAGE.width - PAGE.margin, y: this.y },
      thickness: 0.5,
      color: GREY,
    });
    this.y -= 4;
  }
}

/**
 * Renders a note's summary as PDF with pdf-lib and its standard Helvetica
 * fonts (nothing to embed, so a page renders in milliseconds). The full
 * variant shows every section over as many pages as it needs; the short one
 * keeps to one page and says when it left something out.
 */
export class PdfLibSummaryRenderer implements SoapSummaryRenderer {
  readonly contentType = "application/pdf";

  async render(s: SoapSummary, variant: SummaryVariant): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const fonts = {
      regular: await doc.embedFont(StandardFonts.Helvetica),
      bold: await doc.embedFont(StandardFonts.HelveticaBold),
    };
    const title = `${variant === "full" ? "SOAP note summary" : "SOAP note short summary"}: ${s.patient.name}`;
    doc.setTitle(drawable(fonts.regular, title));
    doc.setSubject(`SOAP note ${s.contextId}`);
    doc.setCreator("OpenPractice");
    doc.setProducer("OpenPractice with pdf-lib");
    const w = new PageWriter(doc, fonts, variant === "short");

    w.text([s.organisationName, s.clinicName].filter(Boolean).join(" - "), { size: SIZE.small, color: GREY });
    w.text(variant === "full" ? "SOAP note summary" : "SOAP note short summary", {
      size: SIZE.title,
      bold: true,
      gapAfter: 4,
    });
    w.text(
      `Patient: ${s.patient.name} (id ${s.patient.id}${s.patient.dateOfBirth ? `, born ${s.patient.dateOfBirth}` : ""})`,
      { bold: true },
    );
    w.text(`Note: ${s.noteType}, ${s.contextId}${s.caseTitle ? `, case "${s.caseTitle}"` : ""}`);
    w.text(`Service date: ${s.serviceDateTime}${s.completedAt ? `    Completed: ${s.completedAt}` : ""}`);
    w.text(
      `Rendering physician: ${s.renderingPhysician}${s.supervisingPhysician ? `    Supervising physician: ${s.supervisingPhysician}` : ""}`,
    );
    w.rule();

    if (variant === "full") {
      for (const section of s.sections) {
        w.heading(section.title);
        if (section.lines.length === 0) w.text("(nothing recorded)", { color: GREY, indent: 8 });
        for (const line of section.lines) w.text(line, { indent: 8 });
      }
    }

    w.heading("Diagnoses (ICD-10-CM)");
    if (s.diagnoses.length === 0) w.text("(none)", { color: GREY, indent: 8 });
    for (const d of s.diagnoses) w.text(`${d.code}  ${d.description}${d.primary ? "  (primary)" : ""}`, { indent: 8 });

    w.heading(`Treatments (units by the ${s.billingRule} rule)`);
    if (s.treatments.length === 0) w.text("(none)", { color: GREY, indent: 8 });
    for (const t of s.treatments) {
      const modifiers = t.modifiers.length ? `, modifiers ${t.modifiers.join(" ")}` : "";
      w.text(`${t.code}  ${t.description}: ${t.minutes} min, ${t.units} unit${t.units === 1 ? "" : "s"}${modifiers}`, {
        indent: 8,
      });
    }

    w.heading("Signatures");
    if (s.signatures.length === 0) w.text("(unsigned)", { color: GREY, indent: 8 });
    for (const sig of s.signatures) w.text(`${sig.role} ${sig.name} on ${sig.signedAt}`, { indent: 8 });
    if (s.contentHash) w.text(`Content hash: ${s.contentHash}`, { size: SIZE.small, color: GREY, indent: 8 });
    if (w.truncated) {
      // The last line of the page says what is missing rather than dropping it silently.
      const page = doc.getPage(0);
      page.drawText("Shortened to one page; the full summary has everything.", {
        x: PAGE.margin,
        y: PAGE.margin,
        size: SIZE.small,
        font: fonts.regular,
        color: GREY,
      });
    }

    const pages = doc.getPages();
    pages.forEach((page, i) =>
      page.drawText(`${s.contextId}  -  page ${i + 1} of ${pages.length}`, {
        x: PAGE.margin,
        y: PAGE.margin / 2,
        size: SIZE.small,
        font: fonts.regular,
        color: GREY,
      }),
    );
    return doc.save();
  }
}
