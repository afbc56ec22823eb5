import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditEntry } from "./audit-event.js";

/** The audited operation a request is running, shared by everything it awaits. */
export interface AuditScope {
  readonly organisationId: number;
  readonly entry: AuditEntry;
  /** Set by the service that knows which record the operation created (when no path id names it). */
  resourceId: string | null;
  /** True once the entry is committed, with the operation's first transaction or on its own. */
  recorded: boolean;
}

const scopes = new AsyncLocalStorage<AuditScope>();

/** Runs `fn` as the audited operation `scope`: its first transaction also writes the audit entry. */
export const runInAuditScope = <T>(scope: AuditScope, fn: () => Promise<T>): Promise<T> => scopes.run(scope, fn);

export const currentAuditScope = (): AuditScope | undefined => scopes.getStore();

/**
 * Runs `fn` in the audit scope its caller had (none included). A transaction's body may run in another caller's
 * async context (SQLite's group commit runs several callers' bodies in one transaction), so what it notes
 * (noteAuditedResource) must reach the scope captured when the transaction was asked for.
 */
export const runInCapturedScope = <T>(scope: AuditScope | undefined, fn: () => Promise<T>): Promise<T> =>
  scope ? scopes.run(scope, fn) : scopes.exit(fn);

/**
 * Names the record the current operation created, for its audit entry (a create route has no id in its path).
 * Outside an audited operation it does nothing.
 */
export function noteAuditedResource(id: number | string): void {
  const scope = scopes.getStore();
  if (scope && scope.resourceId === null) scope.resourceId = String(id);
}

/**
 * Qualifies the current operation's audit action with a choice the request made that is no record's data (a block
 * edit's scope: `v1ModifyBlock.this_and_following`), so the trail says which of an operation's forms ran. Outside an
 * audited operation it does nothing.
 */
export function noteAuditedQualifier(qualifier: string): void {
  const scope = scopes.getStore();
  if (scope && !scope.recorded && !scope.entry.action.includes("."))
    scope.entry.action = `${scope.entry.action}.${qualifier}`;
}
