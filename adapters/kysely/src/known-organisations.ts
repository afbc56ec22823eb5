import type { Repositories } from "@openpractice/core";

/** Past this many, the set starts afresh (an ensure then costs one statement again, nothing worse). */
const MAX_KNOWN = 100_000;

/**
 * The organisations a store has seen committed. Every service that writes an organisation's rows first ensures
 * the organisation exists (core's ensureOrganisation, an insert-if-absent): one statement, and on a server engine
 * one network round trip, per write. Organisations are never deleted, so once one is known to be committed its
 * ensure sends nothing. An ensure inside a transaction only becomes known when that transaction commits: until
 * then a rollback could still take the row away.
 */
export class KnownOrganisations {
  private readonly known = new Set<number>();

  /** The repositories of one transaction with the known ensures skipped; `committed` is called once it has committed. */
  track(tx: Repositories): { repositories: Repositories; committed: () => void } {
    const pending: number[] = [];
    const organisations = tx.organisations;
    const tracked = Object.assign(Object.create(organisations) as typeof organisations, {
      ensure: async (org: Parameters<typeof organisations.ensure>[0]) => {
        if (this.known.has(org.id)) return;
        await organisations.ensure(org);
        pending.push(org.id);
      },
    });
    return {
      repositories: { ...tx, organisations: tracked },
      committed: () => {
        for (const id of pending) this.remember(id);
      },
    };
  }

  private remember(id: number): void {
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.add(id);
  }
}
