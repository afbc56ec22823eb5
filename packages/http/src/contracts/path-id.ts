/** A numeric path id: a positive integer of up to 15 digits, or undefined (the caller answers its own NOT_FOUND). */
export function positivePathId(raw: string | undefined): number | undefined {
  if (!raw || !/^\d{1,15}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id > 0 ? id : undefined;
}
