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

/**
 * Breaks `text` into lines no wider than `width` at `size`, at spaces where
 * possible, mid-word where a word is too long. Each word is measured once and
 * lines are summed word by word (kerning across a space is ignored: under a
 * point), so a long paragraph costs linear, not quadratic, time.
 */
export function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const measure = (s: string) => font.widthOfTextAtSize(s, size);
  const space = measure(" ");
  const lines: string[] = [];
  let line = "";
  let lineWidth = 0;
  for (const word of text.split(/ +/)) {
    const wordWidth = measure(word);
    if (line && lineWidth + space + wordWidth <= width) {
      line += ` ${word}`;
      lineWidth += space + wordWidth;
      continue;
    }
    if (line) lines.push(line);
    // A word wider than the line is cut into pieces that fit.
    let rest = word;
    let restWidth = wordWidth;
    while (restWidth > width) {
      let n = rest.length - 1;
      while (n > 1 && measure(rest.slice(0, n)) > width) n--;
      lines.push(rest.slice(0, n));
      rest = rest.slice(n);
      restWidth = measure(rest);
    }
    line = rest;
    lineWidth = restWidth;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}
