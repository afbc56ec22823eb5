import type { PoolStats, Repositories, Storage } from "@openpractice/core";
import { sql, type Kysely } from "kysely";
import { deferringAppends } from "./deferred-appends.js";
import { GroupCommit } from "./group-commit.js";
import { KnownOrganisations } from "./known-organisations.js";
import { migrateToLatest } from "./migrate.js";
import { repositoriesOn } from "./kysely-modules.js";
import type { Database } from "./schema.js";
import { allowInsertsAhead, runningInsertsAhead } from "./speculative-inserts.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/** Runs of a transaction the engine ends for a deadlock before the error reaches the caller (pauses up to 1.3 s in all). */
const TRANSACTION_ATTEMPTS = 8;

export interface KyselyStorageOptions {
  db: Kysely<Database>;
  profile: SqlDialectProfile;
  /** Whether close() destroys the Kysely instance (false when the caller owns the client). */
  ownsConnection: boolean;
  /** The driver pool's counters (monitoring), when the engine has a pool. */
  poolStats?: (() => PoolStats | undefined) | undefined;
  /**
   * Share commits between concurrent transactions (GroupCommit). Default: on for engines with one writer at a time
   * (`profile.singleWriter`, SQLite), off for the server engines, where each connection commits on its own.
   */
  groupCommit?: boolean | undefined;
  /** What the engine adapter ends before the connection is closed (SQLite's checkpoint thread). */
  closing?: (() => Promise<void>) | undefined;
}

/** The storage port over any Kysely dialect; the engine adapters only build the Kysely instance and the profile. */
export class KyselyStorage implements Storage {
  readonly capabilities;
  readonly repositories: Repositories;
  private readonly knownOrganisations = new KnownOrganisations();
  private readonly group: GroupCommit | undefined;

  constructor(private readonly options: KyselyStorageOptions) {
    this.capabilities = Object.freeze({
      ...options.profile.capabilities,
      ...(options.profile.singleWriter ? { singleWriter: true } : {}),
    });
    const { db, profile } = options;
    if (options.groupCommit ?? profile.singleWriter === true)
      this.group = new GroupCommit(
        (body) => this.retryingConflicts(() => db.transaction().execute(body)),
        async (fn, trx) => {
          const tracked = this.trackedRepositories(trx);
          try {
            return { ok: true, value: await fn(tracked.repositories), committed: tracked.committed };
          } catch (error) {
            return { ok: false, error };
          }
        },
        profile,
      );
    this.repositories = this.group
      ? this.group.joiningCommits(repositoriesOn(db, profile))
      : repositoriesOn(db, profile);
  }

  poolStats(): PoolStats | undefined {
    return this.options.poolStats?.();
  }

  /** The Kysely instance, for adapter-specific probes and tests. */
  get db(): Kysely<Database> {
    return this.options.db;
  }

  migrate(): Promise<string[]> {
    return migrateToLatest(this.options.db, this.options.profile);
  }

  async transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    if (this.group) return this.group.run(fn);
    const { db, profile } = this.options;
    let committed = () => {};
    const value = await runningInsertsAhead(profile, (run) =>
      this.retryingConflicts(() =>
        db.transaction().execute(async (trx) => {
          allowInsertsAhead(trx, run);
          const tracked = this.trackedRepositories(trx);
          committed = tracked.committed;
          if (!profile.dataModifyingCte && !profile.deferredAppends) return fn(tracked.repositories);
          const appends = deferringAppends(tracked.repositories, trx, profile.dataModifyingCte === true);
          const value = await fn(appends.repositories);
          await appends.flush();
          return value;
        }),
      ),
    );
    committed();
    return value;
  }

  /** A transaction's repositories, its organisation ensures remembered once `committed` is called. */
  private trackedRepositories(trx: Kysely<Database>) {
    return this.knownOrganisations.track(repositoriesOn(trx, this.options.profile));
  }

  private async retryingConflicts<T>(run: () => Promise<T>): Promise<T> {
    const { profile } = this.options;
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        // The engine rolled the whole transaction back to break a deadlock: nothing of it stays, so it runs again,
        // after a random pause that doubles per attempt so that the contenders spread out.
        if (attempt >= TRANSACTION_ATTEMPTS || !profile.isTransactionConflict?.(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
      }
    }
  }

  isUnavailable(error: unknown): boolean {
    return this.options.profile.isUnavailable?.(error) ?? false;
  }

  async ping(): Promise<void> {
    await sql`select 1`.execute(this.options.db);
  }

  async close(): Promise<void> {
    await this.options.closing?.();
    if (this.options.ownsConnection) await this.options.db.destroy();
  }
}
