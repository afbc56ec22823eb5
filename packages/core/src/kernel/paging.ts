import { DomainError } from "./domain-error.js";

/** page (1-based) and size with defaults, refusing anything out of bounds with INVALID_PARAMETER naming the parameter. */
export function toPageWindow(
  page: number | undefined,
  size: number | undefined,
  bounds = { defaultSize: 20, maxSize: 100 },
): { page: number; size: number; limit: number; offset: number } {
  const p = page ?? 1;
  const s = size ?? bounds.defaultSize;
  if (!Number.isSafeInteger(p) || p < 1)
    throw DomainError.invalidParameter("page", page, "must be an integer of at least 1");
  if (!Number.isSafeInteger(s) || s < 1 || s > bounds.maxSize)
    throw DomainError.invalidParameter("size", size, `must be between 1 and ${bounds.maxSize}`);
  return { page: p, size: s, limit: s, offset: (p - 1) * s };
}

/**
 * A page of `rows` ordered by `key` (ties by id, in the same direction): for lists an organisation keeps small
 * (clinics, providers), filtered and paged in the service over all of the organisation's rows.
 */
export function sortedPage<T extends { id: number }>(
  rows: readonly T[],
  key: (row: T) => string,
  order: "asc" | "desc",
  window: { offset: number; limit: number },
): { rows: T[]; total: number } {
  const direction = order === "asc" ? 1 : -1;
  const keyed = rows.map((row) => ({ row, k: key(row) }));
  keyed.sort((a, b) => (a.k < b.k ? -direction : a.k > b.k ? direction : (a.row.id - b.row.id) * direction));
  return { rows: keyed.slice(window.offset, window.offset + window.limit).map((e) => e.row), total: rows.length };
}
