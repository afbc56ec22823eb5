import type { PDFFont } from "pdf-lib";

/**
 * Text the standard fonts can draw: they encode WinAnsi only, so any other
 * character (CJK, emoji, most of Unicode) would make pdf-lib throw. Accents
 * are kept where WinAnsi has them; the rest becomes "?".
 */
const characterSets = new WeakMap<PDFFont, Set<number>>();

export function drawable(font: PDFFont, text: string): string {
  let supported = characterSets.get(font);
  if (!supported) characterSets.set(font, (supported = new Set(font.getCharacterSet())));
  let out = "";
  for (const ch of text.replace(/[\r\n\t]+/g, " ")) {
    if (supported!.has(ch.codePointAt(0)!)) out += ch;
    else {
      const base = ch.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
      out += [...base].every((c) => supported!.has(c.codePointAt(0)!)) && base !== "" ? base : "?";
    }
  }
  return out;
}

/** Breaks `text` into lines no wider than `width` at `size`, at spaces where possible, mid-word where a word is too long. */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= width;
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/ +/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    // A word wider than the line is cut into pieces that fit.
    let rest = word;
    while (!fits(rest)) {
      let n = rest.length - 1;
      while (n > 1 && !fits(rest.slice(0, n))) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
    }
    line = rest;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}
