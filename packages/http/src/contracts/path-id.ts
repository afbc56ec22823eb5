import { MAX_STORED_ID } from "@openpractice/core";

/**
 * A numeric path id: a positive integer up to MAX_STORED_ID, or undefined (the caller answers its own
 * NOT_FOUND). A larger id names nothing, and PostgreSQL would refuse it as out of range for integer.
 */
export function positivePathId(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 && id <= MAX_STORED_ID ? id : undefined;
}
