import { randomBytes } from "node:crypto";

/**
 * Uploads are written to `<key>.<random>.partial` in the object's own shard directory and renamed when whole: the
 * dot keeps the name outside DOCUMENT_KEY_PATTERN (never mistaken for an object), the random part lets a retried
 * upload of the same key start while an abandoned one is still there, and the same directory makes the rename atomic.
 */
export function partialNameOf(key: string): string {
  return `${key}.${randomBytes(6).toString("hex")}.partial`;
}

export function isPartialName(name: string): boolean {
  return name.endsWith(".partial");
}

/**
 * How old a `.partial` file must be before `list()` removes it: a process that crashed mid-upload leaves one
 * behind. An upload still writing touches its file with every chunk, so only one stalled this long is removed (its
 * rename then fails and its put rejects, leaving nothing).
 */
export const PARTIAL_MAX_AGE_MS = 60 * 60 * 1000;
