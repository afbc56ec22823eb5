import type { Repositories } from "@openpractice/core";
import { CompiledQuery, type Kysely } from "kysely";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

// Compiled once: every member of every group sends them.
const SAVEPOINT = CompiledQuery.raw("savepoint group_member");
const RELEASE = CompiledQuery.raw("release savepoint group_member");
const ROLLBACK_TO = CompiledQuery.raw("rollback to savepoint group_member");

/** One transaction waiting for the next shared commit. */
interface Waiting {
  fn: (tx: Repositories) => Promise<unknown>;
  /** The member runs one statement, which the engine applies whole or not at all: it needs no savepoint. */
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown; committed: () => void } | { ok: false; error: unknown };

/** Runs one transaction function on the shared transaction's repositories; `committed` runs once the commit holds. */
export type RunOne = (fn: (tx: Repositories) => Promise<unknown>, trx: Kysely<Database>) => Promise<Outcome>;

/**
 * Group commit for an engine with one writer at a time (SQLite). The transactions asked for while the connection
 * is busy, or within the same turn of the event loop, run one after another inside ONE database transaction, each
 * in its own savepoint: a transaction that throws rolls back only its savepoint (its caller gets its error, the
 * others are unaffected), and every caller is answered only after the shared COMMIT, so an answered write is as
 * durable as before. One commit writes the pages the group changed once (the WAL frames of the patients table, its
 * indexes and the outbox), where one commit each wrote them once per request.
 *
 * The transactions of a group never interleave: each runs to its end before the next starts (interleaving inside
 * nested savepoints would let one's rollback undo another's statements). With a single connection behind a mutex
 * they ran one after another anyway, so nobody waits longer than before for the connection; they wait for the
 * commit of a bigger group instead of their own.
 *
 * If the engine ends the shared transaction to resolve a conflict with another process (SQLITE_BUSY_SNAPSHOT),
 * the whole group runs again, as a single transaction would (`runGroup` is given that retry by the caller).
 */
export class GroupCommit {
  private waiting: Waiting[] = [];
  private flushing = false;
  private scheduled = false;

  constructor(
    private readonly runGroup: (body: (trx: Kysely<Database>) => Promise<void>) => Promise<void>,
    private readonly runOne: RunOne,
    private readonly profile: SqlDialectProfile,
    /** The most transactions one commit carries, so a burst does not hold every caller behind one long group. */
    private readonly maxGroup = 64,
  ) {}

  run<T>(fn: (tx: Repositories) => Promise<T>, oneStatement = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ fn, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /**
   * The store's repositories outside a transaction, with the writes every request makes on its own (the
   * rate-limit hit, the audit entry of a read) joining the next shared commit instead of committing alone.
   */
  joiningCommits(repositories: Repositories): Repositories {
    const { rateLimits, audit } = repositories;
    return {
      ...repositories,
      rateLimits: Object.assign(Object.create(rateLimits) as typeof rateLimits, {
        hit: (key: string, windowStart: Date, hits?: number) =>
          this.run((tx) => tx.rateLimits.hit(key, windowStart, hits), true),
      }),
      audit: Object.assign(Object.create(audit) as typeof audit, {
        append: (events: Parameters<typeof audit.append>[0]) => this.run((tx) => tx.audit.append(events), true),
      }),
    };
  }

  private schedule(): void {
    if (this.flushing || this.scheduled) return;
    this.scheduled = true;
    // setImmediate: the requests whose handlers reach their transaction in this turn join the same group.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    const group = this.waiting.splice(0, this.maxGroup);
    if (group.length === 0) return;
    this.flushing = true;
    try {
      await this.commitGroup(group);
    } finally {
      this.flushing = false;
      // Those who arrived while this group held the connection form the next one.
      if (this.waiting.length > 0) this.schedule();
    }
  }

  private async commitGroup(group: Waiting[]): Promise<void> {
    let outcomes: Outcome[] = [];
    try {
      await this.runGroup(async (trx) => {
        outcomes = [];
        for (const waiting of group) outcomes.push(await this.runMember(waiting, trx));
      });
    } catch (error) {
      // The shared transaction failed as a whole (its COMMIT, or a conflict that outlasted the retries): nothing of
      // it stays, so every member fails as its own transaction would have.
      for (const waiting of group) waiting.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => {
      const waiting = group[i] as Waiting;
      if (outcome.ok) {
        outcome.committed();
        waiting.resolve(outcome.value);
      } else waiting.reject(outcome.error);
    });
  }

  private async runMember(waiting: Waiting, trx: Kysely<Database>): Promise<Outcome> {
    // A single statement is atomic on its own (SQLite rolls back a failed statement, not the transaction):
    // the rate-limit hit and an audit append skip the two savepoint statements.
    if (waiting.oneStatement) {
      const outcome = await this.runOne(waiting.fn, trx);
      if (!outcome.ok && this.profile.isTransactionConflict?.(outcome.error)) throw outcome.error;
      return outcome;
    }
    // One name serves every member: each savepoint is released or rolled back before the next is taken.
    await trx.executeQuery(SAVEPOINT);
    const outcome = await this.runOne(waiting.fn, trx);
    if (outcome.ok) {
      await trx.executeQuery(RELEASE);
      return outcome;
    }
    // A conflict ends the shared transaction for everyone: the whole group runs again.
    if (this.profile.isTransactionConflict?.(outcome.error)) throw outcome.error;
    await trx.executeQuery(ROLLBACK_TO);
    await trx.executeQuery(RELEASE);
    return outcome;
  }
}
