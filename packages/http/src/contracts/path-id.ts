import { DomainError, type ErrorCode, MAX_STORED_ID } from "@openpractice/core";

/**
 * A numeric path id: a positive integer up to MAX_STORED_ID, or undefined. A larger id names nothing,
 * and PostgreSQL would refuse it as out of range for integer.
 */
export function positivePathId(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 && id <= MAX_STORED_ID ? id : undefined;
}

/**
 * How a route reads one path parameter as an id. A text that names no id is the resource's
 * not-found error (the same answer as a well-formed id that does not exist), naming the text sent.
 */
export interface PathIdKind {
  readonly notFound: ErrorCode;
  /** The details field that carries the text sent, e.g. patient_id. */
  readonly detail: string;
  parse(raw: string): number | undefined;
}

/** A path id kind: `notFound` for text that is no id, `detail` naming it; numeric ids unless `parse` says otherwise. */
export function pathIdKind(
  notFound: ErrorCode,
  detail: string,
  parse: (raw: string) => number | undefined = positivePathId,
): PathIdKind {
  return Object.freeze({ notFound, detail, parse });
}

/** "REFERRING_PHYSICIAN_NOT_FOUND" → "Referring physician not found". */
function notFoundMessage(code: ErrorCode): string {
  const words = code.toLowerCase().split("_").join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The id `raw` names under `kind`, or its not-found error. */
export function readPathId(kind: PathIdKind, raw: string | undefined): number {
  const id = raw === undefined ? undefined : kind.parse(raw);
  if (id === undefined)
    throw new DomainError(kind.notFound, notFoundMessage(kind.notFound), { [kind.detail]: raw ?? null });
  return id;
}
