/**
 * The deepest nesting of arrays and objects a request body may have (the body
 * itself is level 1). Every JSON body route refuses deeper bodies before they
 * are parsed, and form writes refuse answers that would nest deeper, so no
 * recursive code (JSON.stringify, structuredClone, validators, the summary
 * renderer, SQL drivers) ever sees a deeper value.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep `value` nests arrays and objects (a scalar is 0, `[]` is 1), looked
 * at without recursion and giving up once past `limit` (then limit + 1), so a
 * value of any depth is measured in bounded time and stack.
 */
export function jsonDepth(value: unknown, limit = MAX_JSON_DEPTH): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (depth > limit) return limit + 1;
    if (depth > deepest) deepest = depth;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return deepest;
}
