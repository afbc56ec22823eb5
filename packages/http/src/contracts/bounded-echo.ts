/**
 * What an error may echo back of a caller's values: strings cut to
 * ECHO_MAX_STRING characters, at most ECHO_MAX_ITEMS items or fields per list or
 * object, nesting past ECHO_MAX_DEPTH (and anything that is not plain JSON
 * data) replaced by a short description. Every error body goes through this, so
 * no input, however long, deep or odd, makes an error large or unrenderable.
 */
export const ECHO_MAX_STRING = 200;
export const ECHO_MAX_ITEMS = 20;
export const ECHO_MAX_DEPTH = 4;
/** The most field issues one error lists; the message says how many more there were. */
export const ECHO_MAX_ISSUES = 50;

/** A string of at most `max` characters, saying how long it was when cut. */
export function truncated(text: string, max = ECHO_MAX_STRING): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

const isPlainObject = (value: object) => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** `value` as an error may show it (see the module comment); never throws. */
export function boundedEcho(value: unknown, depth = 0): unknown {
  try {
    switch (typeof value) {
      case "string":
        return truncated(value);
      case "number":
      case "boolean":
      case "undefined":
        return value;
      case "bigint":
        return truncated(value.toString());
      case "object":
        break;
      default:
        return `[${typeof value}]`;
    }
    if (value === null) return null;
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
    if (Array.isArray(value)) {
      if (depth >= ECHO_MAX_DEPTH) return `[array of ${value.length} items]`;
      const shown = value.slice(0, ECHO_MAX_ITEMS).map((item) => boundedEcho(item, depth + 1));
      return value.length > ECHO_MAX_ITEMS ? [...shown, `… ${value.length - ECHO_MAX_ITEMS} more items`] : shown;
    }
    if (!isPlainObject(value)) return "[object]";
    const keys = Object.keys(value);
    if (depth >= ECHO_MAX_DEPTH) return `[object with ${keys.length} fields]`;
    const out: Record<string, unknown> = {};
    for (const key of keys.slice(0, ECHO_MAX_ITEMS))
      out[truncated(key)] = boundedEcho((value as Record<string, unknown>)[key], depth + 1);
    if (keys.length > ECHO_MAX_ITEMS) out["…"] = `${keys.length - ECHO_MAX_ITEMS} more fields`;
    return out;
  } catch {
    return "[unreadable value]";
  }
}
