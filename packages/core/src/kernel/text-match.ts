/** Matching of names and search terms, shared by every search: folded forms for comparison, never stored values. */

/** Case- and accent-insensitive form of a name or term, used for matching only (stored values keep their case). */
export function foldForMatch(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

/** The digits of a text (a phone number however it was written). */
export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, "");
}

/**
 * Splits a search string into terms that must all match (AND). A term that is
 * a phone number ("(555) 010-2030") becomes its digits so it matches however the
 * phone was written.
 */
export function searchTerms(search: string): string[] {
  return foldForMatch(search)
    .split(" ")
    .filter(Boolean)
    .map((term) => (/^[\d\s()+.-]+$/.test(term) && digitsOnly(term).length > 0 ? digitsOnly(term) : term));
}
