import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { drawable, wrap } from "./text-layout.js";

describe("text layout for the standard fonts", async () => {
  const font = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);

  it("wraps at spaces within the width and keeps every word in order", () => {
    const text = "Patient reports low back pain after lifting boxes at work, worse in the morning. ".repeat(6).trim();
    const lines = wrap(font, text, 10, 200);
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(200.5);
    expect(lines.join(" ")).toBe(text);
  });

  it("cuts a word wider than the line into pieces that fit", () => {
    const word = "x".repeat(200);
    const lines = wrap(font, `a ${word} b`, 10, 100);
    expect(lines.join("")).toBe(`a${word}b`);
    for (const line of lines) expect(font.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(100);
  });

  it("keeps WinAnsi accents, strips other marks, and turns the rest into ?", () => {
    expect(drawable(font, "José Ñandú")).toBe("José Ñandú");
    expect(drawable(font, "Dvořák 李\tx")).toBe("Dvorák ? x");
  });
});
