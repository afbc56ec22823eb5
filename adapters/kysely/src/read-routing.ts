import { AsyncLocalStorage } from "node:async_hooks";
import { DEFAULT_READ_YOUR_WRITES_MS, type Repositories, type ReplicaHealth } from "@openpractice/core";
import {
  Kysely,
  sql,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";
import { repositoriesOn } from "./kysely-modules.js";
import { KyselyStorage, type KyselyStorageOptions } from "./kysely-storage.js";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/** How long a replica that failed is passed over before a read tries it again. */
const REPLICA_RETRY_MS = 5_000;

/** One read replica as the engine adapter built it: its own pool, never migrated, never written. */
export interface ReadReplica {
  /** host:port/database, never the password (readiness names it). */
  name: string;
  db: Kysely<Database>;
  /** Whether close() destroys `db` (false when the caller owns the pool). */
  ownsConnection: boolean;
}

export interface ReplicatedStorageOptions extends KyselyStorageOptions {
  replicas: readonly ReadReplica[];
  /** The primary's dialect: the replica reads compile with it (its driver is not used). */
  dialect: Dialect;
  /** Read-your-writes window in milliseconds (default DEFAULT_READ_YOUR_WRITES_MS). */
  readYourWritesMs?: number | undefined;
  /** Told when a replica fails and its reads go to the primary (hosts log it). */
  onReplicaDown?: ((replica: string, error: unknown) => void) | undefined;
  /** Milliseconds now; tests pass their own. */
  now?: (() => number) | undefined;
}

/**
 * A KyselyStorage whose `readRepositories` answer from read replicas, round-robin. Everything else (transactions,
 * `repositories`, migrations, ping) stays on the primary. An organisation that wrote through this store within the
 * read-your-writes window reads the primary: a statement on the primary that writes (insert, update, delete) and
 * names `organisation_id = n` or inserts an `organisation_id` marks organisation n. A replica that fails with an
 * unavailable-style error (or a recovery conflict) is passed over for a few seconds and the read runs on the
 * primary, so the caller never sees the replica's failure. A transaction's organisations are marked again when it
 * has committed, so the window counts from the commit however long the transaction ran after its writes.
 */
export class ReplicatedKyselyStorage extends KyselyStorage {
  private readonly routes: ReplicaRoute[];
  private readonly recent: RecentWrites;
  private next = 0;

  private constructor(
    options: ReplicatedStorageOptions,
    recent: RecentWrites,
    private readonly replicas: readonly ReadReplica[],
  ) {
    super(options);
    this.recent = recent;
    const now = options.now ?? Date.now;
    this.routes = replicas.map(
      (replica) => new ReplicaRoute(replica, options.db, options.dialect, options.profile, now, options.onReplicaDown),
    );
  }

  /** The storage over `options.db` with write tracking on it; `options.replicas` serve `readRepositories`. */
  static create(options: ReplicatedStorageOptions): ReplicatedKyselyStorage {
    const now = options.now ?? Date.now;
    const recent = new RecentWrites(options.readYourWritesMs ?? DEFAULT_READ_YOUR_WRITES_MS, now);
    // The plugin sees every statement of the primary, in and out of transactions (a transaction inherits it).
    const db = options.db.withPlugin(new WriteRecorder(recent));
    return new ReplicatedKyselyStorage({ ...options, db }, recent, options.replicas);
  }

  /**
   * The organisations the transaction wrote are marked once more after its COMMIT: a statement's own mark can come
   * long before the commit (a slow step after it, a COMMIT waiting on a lock, an insert answered ahead of its COMMIT),
   * and the replica cannot have the rows before the primary committed them.
   */
  override transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.recent.markedAgainAfter(() => super.transaction(fn));
  }

  readRepositories(organisationId: number): Repositories {
    if (this.recent.wroteWithinWindow(organisationId)) return this.repositories;
    for (let tried = 0; tried < this.routes.length; tried++) {
      const route = this.routes[this.next] as ReplicaRoute;
      this.next = (this.next + 1) % this.routes.length;
      if (route.usable()) return route.repositories;
    }
    return this.repositories;
  }

  async replicaHealth(): Promise<ReplicaHealth[]> {
    return Promise.all(this.routes.map((route) => route.check()));
  }

  override async close(): Promise<void> {
    await Promise.all(this.replicas.filter((r) => r.ownsConnection).map((r) => r.db.destroy()));
    await super.close();
  }
}

/** The storage over `options.db`: replicated when `options.replicas` names any, a plain KyselyStorage otherwise. */
export function kyselyStorageWithReplicas(options: ReplicatedStorageOptions): KyselyStorage {
  return options.replicas.length === 0 ? new KyselyStorage(options) : ReplicatedKyselyStorage.create(options);
}

/** When each organisation last wrote, kept for the window only. */
class RecentWrites {
  private readonly last = new Map<number, number>();
  /** The organisations written inside the running `markedAgainAfter`, if any. */
  private readonly ofRun = new AsyncLocalStorage<Set<number>>();
  private sweepAt = 0;

  constructor(
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  wrote(organisationId: number): void {
    const now = this.now();
    this.last.set(organisationId, now);
    this.ofRun.getStore()?.add(organisationId);
    // Forget organisations whose window has passed, at most once per window, so the map holds the active ones.
    if (now >= this.sweepAt) {
      this.sweepAt = now + this.windowMs;
      for (const [id, at] of this.last) if (now - at >= this.windowMs) this.last.delete(id);
    }
  }

  /** Runs `work` (a transaction) and marks the organisations written in it again once it has ended. */
  async markedAgainAfter<T>(work: () => Promise<T>): Promise<T> {
    const organisations = new Set<number>();
    const value = await this.ofRun.run(organisations, work);
    for (const id of organisations) this.wrote(id);
    return value;
  }

  wroteWithinWindow(organisationId: number): boolean {
    const at = this.last.get(organisationId);
    return at !== undefined && this.now() - at < this.windowMs;
  }
}

const WRITE_KINDS = new Set(["InsertQueryNode", "UpdateQueryNode", "DeleteQueryNode"]);

/**
 * Marks the organisations a write names, before the statement runs and again when it has run, so that the window
 * counts from the write's end; inside a transaction of the storage RecentWrites also notes them for the mark after COMMIT.
 */
class WriteRecorder implements KyselyPlugin {
  private readonly pending = new WeakMap<object, number[]>();

  constructor(private readonly recent: RecentWrites) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (WRITE_KINDS.has(args.node.kind)) {
      const organisations = organisationsNamed(args.node);
      for (const id of organisations) this.recent.wrote(id);
      if (organisations.length > 0) this.pending.set(args.queryId, organisations);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    for (const id of this.pending.get(args.queryId) ?? []) this.recent.wrote(id);
    return args.result;
  }
}

type Node = OperationNode & Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";
}

/** The column a ColumnNode or ReferenceNode names, or undefined. */
function columnName(node: unknown): string | undefined {
  if (!isNode(node)) return undefined;
  if (node.kind === "ReferenceNode") return columnName(node.column);
  if (node.kind === "ColumnNode") return (node.column as { name?: string } | undefined)?.name;
  return undefined;
}

function organisationId(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) ? n : undefined;
}

/** The values a value node holds (a ValueNode, or the lists of an `in` or of an insert's row). */
function valuesOf(node: unknown): unknown[] {
  if (!isNode(node)) return [];
  if (node.kind === "ValueNode") return [node.value];
  if (node.kind === "PrimitiveValueListNode") return [...(node.values as unknown[])];
  if (node.kind === "ValueListNode") return (node.values as unknown[]).flatMap(valuesOf);
  return [];
}

/** Every organisation id a write statement names: `organisation_id = n` or `in (...)` anywhere, or an inserted row's. */
export function organisationsNamed(root: OperationNode): number[] {
  const found = new Set<number>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!isNode(node)) return;
    if (node.kind === "InsertQueryNode" && Array.isArray(node.columns)) {
      const at = (node.columns as unknown[]).findIndex((c) => columnName(c) === "organisation_id");
      const rows = isNode(node.values) && node.values.kind === "ValuesNode" ? (node.values.values as unknown[]) : [];
      if (at >= 0) for (const row of rows) addIfId(valuesOf(row)[at]);
    }
    if (
      node.kind === "BinaryOperationNode" &&
      columnName(node.leftOperand) === "organisation_id" &&
      ["=", "in"].includes((node.operator as { operator?: string } | undefined)?.operator ?? "")
    )
      for (const value of valuesOf(node.rightOperand)) addIfId(value);
    for (const [key, child] of Object.entries(node)) if (key !== "kind") visit(child);
  };
  const addIfId = (value: unknown) => {
    const id = organisationId(value);
    if (id !== undefined) found.add(id);
  };
  visit(root);
  return [...found];
}

/** Whether a replica's error means "ask the primary instead" rather than a fault of the read itself. */
function replicaCannotServe(profile: SqlDialectProfile, error: unknown): boolean {
  // A hot standby cancels a read that conflicts with the replay of the primary's changes (SQLSTATE 40001).
  return (profile.isUnavailable?.(error) ?? false) || (profile.isTransactionConflict?.(error) ?? false);
}

/** One replica's reads: a Kysely whose statements run on the replica, or on the primary while the replica fails. */
class ReplicaRoute {
  readonly repositories: Repositories;
  private downUntil = 0;

  constructor(
    private readonly replica: ReadReplica,
    private readonly primary: Kysely<Database>,
    dialect: Dialect,
    private readonly profile: SqlDialectProfile,
    private readonly now: () => number,
    private readonly onDown: ReplicatedStorageOptions["onReplicaDown"],
  ) {
    const driver = new FallbackDriver((query) => this.execute(query));
    const routed = new Kysely<Database>({
      dialect: {
        createAdapter: () => dialect.createAdapter(),
        createDriver: () => driver,
        createQueryCompiler: () => dialect.createQueryCompiler(),
        createIntrospector: (db) => dialect.createIntrospector(db),
      },
    });
    this.repositories = repositoriesOn(routed, profile);
  }

  usable(): boolean {
    return this.now() >= this.downUntil;
  }

  private markDown(error: unknown): void {
    const wasUp = this.usable();
    this.downUntil = this.now() + REPLICA_RETRY_MS;
    if (wasUp) this.onDown?.(this.replica.name, error);
  }

  private async execute(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.usable()) {
      try {
        return await this.replica.db.executeQuery(query);
      } catch (error) {
        if (!replicaCannotServe(this.profile, error)) throw error;
        this.markDown(error);
      }
    }
    return this.primary.executeQuery(query);
  }

  /** Asks the replica now (readiness), and passes it over on failure like a failed read does. */
  async check(): Promise<ReplicaHealth> {
    try {
      await sql`select 1`.execute(this.replica.db);
      this.downUntil = 0;
      return { name: this.replica.name, up: true };
    } catch (error) {
      this.markDown(error);
      return { name: this.replica.name, up: false };
    }
  }
}

/**
 * The driver of a replica's Kysely: each statement is handed to the route, which runs it on a pooled connection
 * of the replica or of the primary. Replica reads are single statements outside transactions.
 */
class FallbackDriver implements Driver {
  constructor(private readonly run: (query: CompiledQuery) => Promise<QueryResult<unknown>>) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const run = this.run;
    return {
      executeQuery: <R>(query: CompiledQuery) => run(query) as Promise<QueryResult<R>>,
      streamQuery: () => {
        throw new Error("replica reads do not stream");
      },
    };
  }
  async beginTransaction(): Promise<void> {
    throw new Error("transactions run on the primary (Storage.transaction), never on a read replica");
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}
