/**
 * One entry of the audit trail (spec 5.2: the token's user_id and name are for audit logging). It names who did
 * what to which record and which fields changed, never their values: the trail holds no patient data.
 */
export interface AuditEvent {
  id: number;
  organisationId: number;
  occurredAt: Date;
  actorUserId: number | null;
  actorName: string | null;
  /** The API client whose token was used (tokens of POST /oauth/token), or null. */
  clientId: string | null;
  /** The operation, e.g. v2CreateStaff or cli.org.create; reads are `read:<operation>`. */
  action: string;
  /** The kind of record, e.g. patient, staff, api_client. */
  resourceType: string;
  /** The record's id as text, or null when the operation names none. */
  resourceId: string | null;
  /** The request's X-Request-Id, or null outside a request. */
  requestId: string | null;
  /** Names of the fields sent to be changed (wire names), sorted; empty for reads, deletes and actions. */
  changedFields: string[];
}

export type AuditEntry = Omit<AuditEvent, "id" | "organisationId" | "occurredAt">;

export interface AuditListFilter {
  actorUserId?: number | undefined;
  clientId?: string | undefined;
  resourceType?: string | undefined;
  resourceId?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
}

export const AUDIT_LIMITS = Object.freeze({ defaultPerPage: 50, maxPerPage: 200 });
