/**
 * What the conformance suites check beside the ports: questions about the stored state that the
 * repositories do not answer (how many rows a race left, what a failed transaction left behind, the
 * stored form of an instant). Each adapter answers them from its own storage, outside its repositories:
 * the memory storage from its state, a SQL engine on the shared schema with `sharedSchemaProbe`.
 */
export interface StorageProbe {
  /** Whether an organisation with this id is stored. */
  hasOrganisation(id: number): Promise<boolean>;
  /** The stored patients, of one organisation when given. */
  patients(organisationId?: number): Promise<ProbedPatient[]>;
  /** Outbox events, of one organisation when given, oldest first. */
  outboxEvents(organisationId?: number): Promise<ProbedEvent[]>;
  appointments(): Promise<ProbedAppointment[]>;
  /** The history entries of one appointment. */
  appointmentHistory(appointmentId: number): Promise<Array<{ action: string }>>;
  /** Rate-limit counters: the counter key (without its window) and the hits of its window. */
  rateLimitCounters(): Promise<Array<{ key: string; hits: number }>>;
  jobs(): Promise<ProbedJob[]>;
  locks(): Promise<Array<{ name: string; holder: string }>>;
  /** Push devices of one organisation. */
  devices(organisationId: number): Promise<Array<{ id: string; userId: string }>>;
  /** Notifications, of one organisation when given. */
  notifications(organisationId?: number): Promise<Array<{ id: string; idempotencyKey: string | null }>>;
}

export interface ProbedPatient {
  id: number;
  organisationId: number;
  firstName: string;
  identityKey: string;
  /** The creation time as stored: ISO 8601 text in UTC on every engine. */
  storedCreatedAt: string;
}

export interface ProbedEvent {
  eventType: string;
  organisationId: number;
  data: unknown;
  dispatched: boolean;
}

export interface ProbedAppointment {
  id: number;
  status: string;
  /** The start as stored: ISO 8601 text in UTC. */
  storedStartsAt: string;
}

export interface ProbedJob {
  id: number;
  status: string;
  attempts: number;
  completedBy: string | null;
  leaseToken: string | null;
  lastError: string | null;
}

/** Every row of `table` whose columns equal `where`, read with the engine's own driver outside the repositories. */
export type TableReader = (
  table: string,
  where?: Record<string, string | number>,
) => Promise<Array<Record<string, unknown>>>;

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
const json = (v: unknown) => (typeof v === "string" ? JSON.parse(v) : v);
const scoped = (organisationId?: number) => (organisationId === undefined ? {} : { organisation_id: organisationId });

/** The probe of an engine on the shared SQL schema (the tables `@openpractice/kysely`'s migrations create). */
export function sharedSchemaProbe(rows: TableReader): StorageProbe {
  return {
    async hasOrganisation(id) {
      return (await rows("organisations", { id })).length > 0;
    },
    async patients(organisationId) {
      return (await rows("patients", scoped(organisationId))).map((r) => ({
        id: Number(r.id),
        organisationId: Number(r.organisation_id),
        firstName: String(r.first_name),
        identityKey: String(r.identity_key),
        storedCreatedAt: String(r.created_at),
      }));
    },
    async outboxEvents(organisationId) {
      return (await rows("outbox", scoped(organisationId)))
        .sort((a, b) => Number(a.id) - Number(b.id))
        .map((r) => ({
          eventType: String(r.event_type),
          organisationId: Number(r.organisation_id),
          data: json(r.data),
          dispatched: r.dispatched_at !== null,
        }));
    },
    async appointments() {
      return (await rows("appointments")).map((r) => ({
        id: Number(r.id),
        status: String(r.status),
        storedStartsAt: String(r.starts_at),
      }));
    },
    async appointmentHistory(appointmentId) {
      return (await rows("appointment_history", { appointment_id: appointmentId })).map((r) => ({
        action: String(r.action),
      }));
    },
    async rateLimitCounters() {
      return (await rows("rate_limit_counters")).map((r) => ({ key: String(r.counter_key), hits: Number(r.hits) }));
    },
    async jobs() {
      return (await rows("jobs")).map((r) => ({
        id: Number(r.id),
        status: String(r.status),
        attempts: Number(r.attempts),
        completedBy: text(r.completed_by),
        leaseToken: text(r.lease_token),
        lastError: text(r.last_error),
      }));
    },
    async locks() {
      return (await rows("locks")).map((r) => ({ name: String(r.name), holder: String(r.holder) }));
    },
    async devices(organisationId) {
      return (await rows("notification_devices", { organisation_id: organisationId })).map((r) => ({
        id: String(r.id),
        userId: String(r.user_id),
      }));
    },
    async notifications(organisationId) {
      return (await rows("notifications", scoped(organisationId))).map((r) => ({
        id: String(r.id),
        idempotencyKey: text(r.idempotency_key),
      }));
    },
  };
}
