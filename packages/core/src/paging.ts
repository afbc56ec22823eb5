import { DomainError } from "./errors/domain-error.js";

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
