import type { Clock, LockStore } from "@openpractice/core";
import { startHeartbeat } from "./heartbeat.js";

export interface LockLease {
  name: string;
  holder: string;
  ttlMs: number;
}

/**
 * Runs `work` while holding the named store lock, or not at all (false) when another holder has it. The lease is
 * short and renewed every third of it while `work` runs (a heartbeat), so a process that dies frees the lock within
 * `ttlMs` of its last renewal. `held()` turns false once a renewal fails (the lease lapsed and another process may
 * hold it now): `work` should stop at its next step. The lock is kept afterwards, so the same process stays the
 * holder on its next call; `release` it on a graceful stop.
 */
export async function holdingLock(
  locks: LockStore,
  clock: Clock,
  lease: LockLease,
  work: (held: () => boolean) => Promise<void>,
): Promise<boolean> {
  const renew = () => locks.tryAcquire(lease.name, lease.holder, clock.now(), lease.ttlMs);
  if (!(await renew())) return false;
  let held = true;
  const heartbeat = startHeartbeat(lease.ttlMs / 3, () =>
    renew().then(
      (ok) => void (held &&= ok),
      () => void (held = false),
    ),
  );
  try {
    await work(() => held);
  } finally {
    await heartbeat.stop();
  }
  return true;
}
