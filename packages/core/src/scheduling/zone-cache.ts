import { DateTime, IANAZone } from "luxon";

/**
 * Luxon reads a zone's offset through Intl for every DateTime it builds in that zone, which made slot searches
 * spend most of their time there. Offsets change only at transitions (on whole quarter hours in every zone), so
 * both the instant of a wall-clock time and a zone's offset at an instant are remembered. Bounded: a full cache
 * starts again empty.
 */
const LIMIT = 100_000;
const instants = new Map<string, number>();
const offsets = new Map<string, number>();

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= LIMIT) map.clear();
  map.set(key, value);
  return value;
}

/** The instant a wall-clock time in `zone` names (a skipped time moves forward by the gap, as Luxon does). */
export function zonedInstant(
  zone: string,
  t: { year: number; month: number; day: number; hour: number; minute: number; second?: number },
): Date {
  const key = `${zone}|${t.year}|${t.month}|${t.day}|${t.hour}|${t.minute}|${t.second ?? 0}`;
  const known = instants.get(key);
  if (known !== undefined) return new Date(known);
  return new Date(remember(instants, key, DateTime.fromObject(t, { zone }).toMillis()));
}

const QUARTER_HOUR = 15 * 60_000;
const DAY = 86_400_000;
/** Per zone and UTC day: the offset when it is the same at both ends of the day, else null (a transition day). */
const dayOffsets = new Map<string, number | null>();

/**
 * The zone's offset from UTC in minutes at `at`. A UTC day whose two ends have one offset has it throughout (zones
 * change offset at most once a day), so most days cost two lookups; transition days are read per quarter hour.
 */
export function offsetAt(zone: string, at: Date): number {
  const day = Math.floor(at.getTime() / DAY);
  const dayKey = `${zone}|${day}`;
  let whole = dayOffsets.get(dayKey);
  if (whole === undefined) {
    const iana = IANAZone.create(zone);
    const first = iana.offset(day * DAY);
    whole = remember(dayOffsets, dayKey, first === iana.offset((day + 1) * DAY - 1) ? first : null);
  }
  if (whole !== null) return whole;
  const key = `${zone}|${Math.floor(at.getTime() / QUARTER_HOUR)}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  return remember(offsets, key, IANAZone.create(zone).offset(at.getTime()));
}

const two = (n: number) => String(n).padStart(2, "0");

/**
 * ISO 8601 with the zone's offset at that instant, e.g. 2027-03-14T09:00:00-04:00, as Luxon's toISO writes it with
 * suppressMilliseconds (Z for a zero offset). Built from the remembered offset and Date's own ISO text: a slot
 * search writes thousands of these, and building a DateTime for each was most of its cost. A test compares it with
 * Luxon's across zones and instants.
 */
export function isoInZone(at: Date, zone: string): string {
  const offset = offsetAt(zone, at);
  const local = new Date(at.getTime() + offset * 60_000).toISOString();
  const wall = local.endsWith(".000Z") ? local.slice(0, 19) : local.slice(0, 23);
  if (offset === 0) return `${wall}Z`;
  const abs = Math.abs(offset);
  return `${wall}${offset < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** The instant a local day (YYYY-MM-DD, plus `days`) starts in `zone`. */
export function dayStart(zone: string, date: string, days = 0): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  // Date.UTC normalises the day count across months and years; only the calendar date is read from it.
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return zonedInstant(zone, {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: 0,
    minute: 0,
  });
}

/** The local calendar date at `at` in `zone`, as a UTC midnight ("floating", as rrule reads dates). */
export function floatingDate(zone: string, at: Date): Date {
  const local = new Date(at.getTime() + offsetAt(zone, at) * 60_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()));
}
