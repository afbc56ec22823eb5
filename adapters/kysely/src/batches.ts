/**
 * Statements over many rows or ids are split into slices, so none comes near an engine's limit on bound
 * parameters (SQLite 32,766; PostgreSQL, MySQL and MariaDB 65,535) or builds an oversized statement: each
 * call site picks a slice size for the width of its rows (500 ids per IN list, 200 wide rows per INSERT).
 */
export function* slices<T>(items: readonly T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** `items` grouped by `key`, the groups in the order their first item came. */
export function groupBy<T, K>(items: Iterable<T>, key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
