/** Most hits one reservation takes from the shared counter: one request in 64 writes it at a steady rate. */
export const MAX_LEASE = 64;
/**
 * A reservation takes at most this share of what the budget had left when this process last looked, so processes
 * sharing a budget refuse early by at most that much between them (hits another holds unused), and small budgets
 * (under 16 left) are counted one hit at a time, exactly.
 */
const SHARE_OF_REMAINING = 1 / 8;

interface Lease {
  windowStart: number;
  /** The next count this process may hand out, and the last one it holds. */
  next: number;
  last: number;
  /** Hits the last reservation took, and the counter's value it returned (every process's hits). */
  size: number;
  seen: number;
}

/**
 * Hits this process reserved from a shared fixed-window counter and hands out
 * one by one, so most requests count their hit without writing the counter.
 * The counter holds every reserved hit, so the processes sharing it never
 * allow more than the budget together; a reservation grows (1, 2, 4, … up to
 * MAX_LEASE) while the window lasts and shrinks as the budget runs out.
 */
export class HitLeases {
  private readonly leases = new Map<string, Lease>();

  /** The count of the next hit reserved earlier in this window, if one is left. */
  take(key: string, windowStart: number): number | undefined {
    const lease = this.leases.get(key);
    if (!lease || lease.windowStart !== windowStart || lease.next > lease.last) return undefined;
    return lease.next++;
  }

  /** How many hits the next reservation of `key` in this window takes. */
  sizeOfNext(key: string, windowStart: number, limit: number): number {
    const lease = this.leases.get(key);
    const current = lease?.windowStart === windowStart ? lease : undefined;
    const grown = current ? Math.min(current.size * 2, MAX_LEASE) : 1;
    const left = limit - (current?.seen ?? 0);
    return Math.max(1, Math.min(grown, Math.floor(left * SHARE_OF_REMAINING)));
  }

  /**
   * Records a reservation of `size` hits that brought the counter to `count`: this process owns the counts
   * count − size + 1 … count, of which those within `limit` are allowed. Returns the first, for the caller.
   */
  hold(key: string, windowStart: number, size: number, count: number, limit: number): number {
    const first = count - size + 1;
    if (this.leases.size > 10_000) this.leases.clear();
    this.leases.set(key, { windowStart, next: first + 1, last: Math.min(count, limit), size, seen: count });
    return first;
  }
}
