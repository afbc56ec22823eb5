/** Timestamps as the tables keep them: ISO 8601 UTC text of fixed width (schema.ts). */
export const toDbTime = (d: Date): string => d.toISOString();
export const fromDbTime = (s: string): Date => new Date(s);
