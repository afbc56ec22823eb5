import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openRawQuery, type RawQuery } from "../support/engines.js";
import { schemaTables, tenantKeyGaps } from "../support/tenant-keys.js";

// Past one PostgreSQL primary the standard path is Citus, with organisation_id as the distribution column
// (docs/scale-out.md). Citus enforces a primary key, a unique constraint or a foreign key between distributed tables
// only when it includes the distribution column, and a table holding an organisation's rows must have the column to be
// distributed at all. This check reads the migrated schema's catalog and holds it to the lists below: a new table or
// key that breaks the rule fails it, and so does a listed gap that was fixed and is still listed, so the lists only
// shrink. It prints the counts docs/scale-out.md reports.

/** Tables that hold no one organisation's rows, and what a Citus cluster would make of each. */
const SHARED_TABLES: Readonly<Record<string, string>> = {
  organisations: "distributed by id: the tenants themselves, co-located with the tenant tables",
  icd_codes: "reference: the ICD-10-CM code set, the same for every organisation",
  icd_words: "reference: the ICD-10-CM search words",
  icd_years: "reference: the ICD-10-CM releases loaded",
  jobs: "local on the coordinator: the job queue, claimed across organisations with FOR UPDATE SKIP LOCKED",
  locks: "local on the coordinator: named leases of the background work",
  rate_limit_counters: "local on the coordinator: counters by client and window, written on every request",
  client_assertions:
    "local on the coordinator: the token endpoint's replay guard, by client id and jti, read before any organisation is known",
  kysely_migration: "local on the coordinator: the migrations applied",
  kysely_migration_lock: "local on the coordinator: the migrations' lock",
};

/** Tables holding an organisation's rows through a parent's id, without organisation_id of their own: known gaps. */
const CHILD_TABLES_WITHOUT_ORGANISATION: Readonly<Record<string, string>> = {
  appointment_category_links: "appointments",
  notification_push_attempts: "notification_pushes",
  provider_clinics: "providers",
  staff_clinics: "staff",
  webhook_attempts: "webhook_deliveries",
};

/**
 * Keys and foreign keys of tenant tables that leave organisation_id out, as tenantKeyGaps words them: known gaps
 * (54 when this list was made). Most are primary keys on a table-wide id.
 */
const KEYS_WITHOUT_ORGANISATION: readonly string[] = [
  "api_clients: primary key (id)",
  "api_clients: unique (client_id)",
  "appointment_categories: primary key (id)",
  "appointment_history: foreign key (appointment_id) references appointments (id)",
  "appointment_history: primary key (id)",
  "appointments: foreign key (clinic_id) references clinics (id)",
  "appointments: foreign key (patient_id) references patients (id)",
  "appointments: primary key (id)",
  "audit_events: primary key (id)",
  "authorizations: foreign key (case_id) references cases (id)",
  "authorizations: foreign key (patient_id) references patients (id)",
  "authorizations: primary key (id)",
  "billing_codes: primary key (id)",
  "cancellation_reasons: primary key (id)",
  "cases: foreign key (clinic_id) references clinics (id)",
  "cases: foreign key (patient_id) references patients (id)",
  "cases: foreign key (referring_physician_id) references referring_physicians (id)",
  "cases: foreign key (secondary_referring_physician_id) references referring_physicians (id)",
  "cases: foreign key (tertiary_referring_physician_id) references referring_physicians (id)",
  "cases: primary key (id)",
  "claims: primary key (id)",
  "clinics: primary key (id)",
  "eligibility_checks: primary key (id)",
  "form_submissions: primary key (id)",
  "insurance_cards: foreign key (patient_id) references patients (id)",
  "insurance_cards: primary key (id)",
  "notification_devices: primary key (id)",
  "notification_pushes: primary key (notification_id, device_id)",
  "notifications: primary key (id)",
  "outbox: primary key (id)",
  "patients: foreign key (clinic_id) references clinics (id)",
  "patient_documents: primary key (id)",
  "patients: primary key (id)",
  "payers: primary key (id)",
  "plans_of_care: primary key (id)",
  "provider_blocks: foreign key (provider_id) references providers (id)",
  "provider_blocks: primary key (id)",
  "provider_schedules: foreign key (clinic_id) references clinics (id)",
  "provider_schedules: foreign key (provider_id) references providers (id)",
  "provider_schedules: primary key (id)",
  "providers: primary key (id)",
  "referring_physicians: primary key (id)",
  "soap_note_history: primary key (id)",
  "soap_notes: foreign key (patient_id) references patients (id)",
  "soap_notes: primary key (id)",
  "soap_notes: unique (context_id)",
  "soap_signatures: primary key (id)",
  // A launch code is redeemed by its hash alone (the token endpoint looks it up before it trusts who sends it).
  "sso_grants: primary key (code_hash)",
  "staff: primary key (id)",
  "task_comments: primary key (id)",
  "tasks: primary key (id)",
  "therapy_charges: primary key (id)",
  "treatment_sheets: primary key (id)",
  "waitlist_offers: primary key (id)",
  "waitlist_offers: unique (request_id, provider_id, starts_at)",
  "waitlist_requests: primary key (id)",
  "webhook_deliveries: primary key (id)",
  "webhook_deliveries: unique (subscription_id, outbox_id)",
  "webhook_subscriptions: primary key (id)",
];

const REFERENCE_TABLES = Object.keys(SHARED_TABLES).filter((t) => SHARED_TABLES[t]?.startsWith("reference"));

describe.skipIf(!availableEngines().includes("postgres"))("[postgres] tenant keys for a distributed PostgreSQL", () => {
  let db: { url: string; drop: () => Promise<void> };
  let raw: RawQuery;
  beforeAll(async () => {
    db = await freshDatabase("postgres", { migrated: true });
    raw = await openRawQuery("postgres", db.url);
  });
  afterAll(async () => {
    await raw?.close();
    await db?.drop();
  });

  it("every table without organisation_id is a listed shared table or a listed child table", async () => {
    const { tenant, other } = await schemaTables(raw);
    const listed = [...Object.keys(SHARED_TABLES), ...Object.keys(CHILD_TABLES_WITHOUT_ORGANISATION)];
    console.log(
      `tables: ${tenant.length} with organisation_id, ${Object.keys(SHARED_TABLES).length} shared, ` +
        `${other.filter((t) => t in CHILD_TABLES_WITHOUT_ORGANISATION).length} child tables without organisation_id`,
    );
    // A new table without the column: give it organisation_id, or list it here saying why it holds no tenant's rows.
    expect(
      other.filter((t) => !listed.includes(t)),
      "tables to classify",
    ).toEqual([]);
    // A listed table that has the column now (or is gone): take it off the list.
    expect(
      listed.filter((t) => !other.includes(t)),
      "listed tables that no longer lack organisation_id",
    ).toEqual([]);
    // A child table's parent is a tenant table (the column to backfill from).
    for (const parent of Object.values(CHILD_TABLES_WITHOUT_ORGANISATION)) expect(tenant).toContain(parent);
  });

  it("keys and foreign keys of tenant tables include organisation_id, apart from the listed gaps", async () => {
    const gaps = (await tenantKeyGaps(raw, REFERENCE_TABLES)).map((g) => `${g.table}: ${g.rule}`);
    const { tenant } = await schemaTables(raw);
    console.log(
      `tenant keys without organisation_id: ${gaps.length} on ${new Set(gaps.map((g) => g.split(":")[0])).size} of ` +
        `${tenant.length} tenant tables (${gaps.filter((g) => g.includes(": primary key")).length} primary keys, ` +
        `${gaps.filter((g) => g.includes(": unique")).length} unique, ` +
        `${gaps.filter((g) => g.includes(": foreign key")).length} foreign keys)`,
    );
    // A new gap: put organisation_id in the key (docs/scale-out.md says how); a fixed one: take it off the list.
    expect(
      gaps.filter((g) => !KEYS_WITHOUT_ORGANISATION.includes(g)),
      "new keys without organisation_id",
    ).toEqual([]);
    expect(
      KEYS_WITHOUT_ORGANISATION.filter((g) => !gaps.includes(g)),
      "listed gaps that are fixed",
    ).toEqual([]);
  });

  it("reports a new tenant table whose keys leave organisation_id out, and one whose keys include it", async () => {
    await raw.query(
      `create table scale_out_probe (
         id serial primary key, organisation_id bigint not null, patient_id integer references patients (id),
         code text, unique (code))`,
    );
    await raw.query(
      `create table scale_out_keyed (
         organisation_id bigint not null references organisations (id), id serial, patient_id integer,
         primary key (organisation_id, id), unique (organisation_id, patient_id))`,
    );
    await raw.query("create unique index scale_out_keyed_code_ix on scale_out_keyed (patient_id, id)");
    try {
      const gaps = (await tenantKeyGaps(raw, REFERENCE_TABLES)).filter((g) => g.table.startsWith("scale_out_"));
      expect(gaps).toEqual([
        { table: "scale_out_keyed", rule: "unique index (patient_id, id)" },
        { table: "scale_out_probe", rule: "foreign key (patient_id) references patients (id)" },
        { table: "scale_out_probe", rule: "primary key (id)" },
        { table: "scale_out_probe", rule: "unique (code)" },
      ]);
    } finally {
      await raw.query("drop table scale_out_probe, scale_out_keyed");
    }
  });
});
