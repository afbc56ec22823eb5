import type {
  Claim,
  PlanOfCare,
  SoapDocument,
  SoapNoteHistoryEntry,
  SoapSignature,
  TreatmentSheet,
  Device,
  DevicePush,
  Notification,
  PushAttempt,
  BillingCode,
  IcdCode10,
  FormSubmission,
  SoapNote,
  StoredSubscription,
  WebhookAttempt,
  WebhookDelivery,
  Appointment,
  AppointmentHistoryEntry,
  AppointmentCategory,
  Authorization,
  InsuranceCard,
  PatientCase,
  ReferringPhysician,
  CancellationReason,
  Clinic,
  OutboxEntry,
  Organisation,
  Patient,
  PatientRecord,
  Provider,
} from "@openpractice/core";

export interface StoredJob {
  id: number;
  queue: string;
  payload: unknown;
  status: "pending" | "done" | "failed";
  runAt: number;
  attempts: number;
  leaseToken: string | null;
  leaseExpiresAt: number | null;
  lastError: string | null;
  completedBy: string | null;
}

/** Everything the store holds; a transaction snapshots and restores it whole. */
export interface MemoryState {
  /** The state of domains added as memory modules (domains.ts), by module key: see moduleState. */
  modules: Map<string, unknown>;
  organisations: Map<number, Organisation>;
  clinics: Clinic[];
  providers: Provider[];
  categories: AppointmentCategory[];
  reasons: CancellationReason[];
  specializations: Set<string>;
  patients: Map<number, PatientRecord & { id: number }>;
  appointments: Map<number, Appointment>;
  appointmentHistory: AppointmentHistoryEntry[];
  cases: Map<number, PatientCase>;
  physicians: Map<number, ReferringPhysician>;
  cards: Map<number, InsuranceCard>;
  authorizations: Map<number, Authorization>;
  subscriptions: Map<number, StoredSubscription>;
  deliveries: Map<number, WebhookDelivery>;
  attempts: WebhookAttempt[];
  /** By id. */
  devices: Map<string, Device>;
  notifications: Map<string, Notification>;
  /** By "notificationId|deviceId". */
  pushes: Map<string, DevicePush>;
  pushAttempts: PushAttempt[];
  /** By context id. */
  notes: Map<string, SoapNote>;
  forms: Map<string, FormSubmission>;
  signatures: SoapSignature[];
  noteHistory: SoapNoteHistoryEntry[];
  sheets: Map<number, TreatmentSheet>;
  claims: Claim[];
  plans: Map<number, PlanOfCare>;
  /** By organisation, context id and variant. */
  documents: Map<string, SoapDocument>;
  icd: IcdCode10[];
  billingCodes: BillingCode[];
  outbox: OutboxEntry[];
  counters: Map<string, number>;
  jobs: Map<number, StoredJob>;
  locks: Map<string, { holder: string; expiresAt: number }>;
  nextId: number;
}

export function emptyState(): MemoryState {
  return {
    modules: new Map(),
    organisations: new Map(),
    clinics: [],
    providers: [],
    categories: [],
    reasons: [],
    specializations: new Set(),
    patients: new Map(),
    appointments: new Map(),
    appointmentHistory: [],
    cases: new Map(),
    physicians: new Map(),
    cards: new Map(),
    authorizations: new Map(),
    subscriptions: new Map(),
    deliveries: new Map(),
    attempts: [],
    devices: new Map(),
    notifications: new Map(),
    pushes: new Map(),
    pushAttempts: [],
    notes: new Map(),
    forms: new Map(),
    signatures: [],
    noteHistory: [],
    sheets: new Map(),
    claims: [],
    plans: new Map(),
    documents: new Map(),
    icd: [],
    billingCodes: [],
    outbox: [],
    counters: new Map(),
    jobs: new Map(),
    locks: new Map(),
    nextId: 1,
  };
}

/** Patients come out as fresh objects, so callers can never mutate the store. */
export function toPatient(r: PatientRecord & { id: number }): Patient {
  const { identityKey: _i, searchText: _s, firstNameSort: _f, lastNameSort: _l, ...p } = structuredClone(r);
  return p;
}

/**
 * A memory module's own slice of the state, created on first use: a new domain
 * keeps its rows here instead of adding fields to MemoryState. It must be
 * structured-cloneable (Maps, arrays, plain objects), as transactions snapshot it.
 */
export function moduleState<T>(state: MemoryState, key: string, init: () => T): T {
  if (!state.modules.has(key)) state.modules.set(key, init());
  return state.modules.get(key) as T;
}
