/** LIKE pattern for "contains term", with the wildcard characters of the term escaped. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
