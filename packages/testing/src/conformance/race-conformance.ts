import { createECDH, randomBytes } from "node:crypto";
import { createPractice, type Storage } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, type FetchHandler } from "@openpractice/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIT_TIMEOUT_MS, type KitTimeoutOptions } from "./kit-timeouts.js";
import { testAccessToken, testPracticeKeys } from "./test-keys.js";

/** A migrated, empty store on the engine under test, and how to remove it. */
export interface RaceFixture {
  storage: Storage;
  dispose(): Promise<void>;
}

export interface RaceOptions extends KitTimeoutOptions {
  /** Identical requests fired at once per round (default 20). */
  concurrency?: number;
  /** Rounds per rule, each on a fresh organisation (default 5): one burst can pass by luck. */
  rounds?: number;
}

const SECRET = "race-conformance-secret-0123456789-abcdef";
const DAY = Math.floor(Date.parse("2031-09-01T00:00:00Z") / 1000);
const HOUR = 3600;
const EXERCISE = { code: "97110", description: "Therapeutic exercise", timed: true };

/** One reply, reduced to what the race rules are about: the status and the contract's code. */
interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

/** "200 2000", "409 4095", "409 DUPLICATE_SUBSCRIPTION", "201": the status and the code the body carries, if any. */
const outcome = (r: Reply): string => {
  const code = r.body?.error?.code ?? (typeof r.body?.code === "number" ? r.body.code : undefined);
  return code === undefined ? String(r.status) : `${r.status} ${code}`;
};

/** How many replies had each outcome; a 5xx also names the defect the handler reported, so a failure says why. */
function tally(replies: Reply[], label: (r: Reply) => string, defects: Map<string, string>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of replies) {
    const key =
      r.status >= 500 ? `${outcome(r)}: ${defects.get(r.headers.get("x-request-id") ?? "") ?? "?"}` : label(r);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * Every uniqueness rule of the service, raced through the real HTTP handler:
 * `concurrency` identical requests at once, `rounds` times, each round in a
 * fresh organisation (so the organisation's own insert-if-absent races too).
 * Each rule expects exactly one winner and the documented answer for every
 * other request (a refusal, or the winner's result for idempotent rules), and
 * never a 5xx. An engine adapter inherits the whole suite by calling
 * `runRaceConformance(name, factory)` with a factory of fresh stores. The
 * suite sets its own timeouts (`options.timeoutMs`, default 60 s a rule and a
 * fixture hook).
 */
export function runRaceConformance(
  engine: string,
  createFixture: () => Promise<RaceFixture>,
  options: RaceOptions = {},
): void {
  const n = options.concurrency ?? 20;
  const rounds = options.rounds ?? 5;
  const timeout = options.timeoutMs ?? KIT_TIMEOUT_MS;

  // Every rule inherits the suite's timeout (a rule is rounds × n requests); the hooks take theirs one by one.
  const title = `race conformance [${engine}]: ${n} concurrent identical requests, ${rounds} rounds per rule`;
  describe(title, { timeout }, () => {
    let fx: RaceFixture;
    let handle: FetchHandler;
    let nextOrganisation = 1000;
    /** Request id → the message of the defect behind its 5xx. */
    const defects = new Map<string, string>();

    beforeAll(async () => {
      fx = await createFixture();
      const practice = createPractice({
        keys: testPracticeKeys(),
        storage: fx.storage,
        planLimits: { free: 10_000_000, enterprise: 10_000_000 },
        allowHttpWebhooks: true,
        allowHttpPushEndpoints: true,
      });
      handle = createHttpHandler({
        practice,
        authenticator: createJwtAuthenticator({ secret: SECRET }),
        onUnexpectedError: (error, entry) =>
          defects.set(
            entry.requestId,
            String((error as Error)?.message ?? error)
              .replace(/\d+/g, "N")
              .slice(0, 120),
          ),
      });
    }, timeout);
    afterAll(async () => {
      await fx.dispose();
    }, timeout);

    /**
     * A new organisation and a client acting in it as user 101. Stored up front
     * unless `stored` is false: a burst in an organisation that does not exist
     * yet queues behind the organisation's own insert and hides the rule's race.
     */
    async function organisation(stored = true) {
      const id = nextOrganisation++;
      if (stored)
        await fx.storage.repositories.organisations.ensure({ id, name: `Race ${id}`, plan: "free", now: new Date() });
      const tokens = {
        user: await testAccessToken(SECRET, { organisationId: id, userId: 101, scope: "read write" }),
        admin: await testAccessToken(SECRET, { organisationId: id, userId: 101, scope: "admin read write" }),
      };
      const send = async (
        method: string,
        path: string,
        body?: unknown,
        as: keyof typeof tokens = "user",
      ): Promise<Reply> => {
        const headers: Record<string, string> = { authorization: `Bearer ${tokens[as]}` };
        if (body !== undefined) headers["content-type"] = "application/json";
        const res = await handle(
          new Request(`http://race.test${path}`, {
            method,
            headers,
            body: body === undefined ? null : JSON.stringify(body),
          }),
        );
        const text = await res.text();
        return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
      };
      const ok = async (method: string, path: string, body?: unknown, as: keyof typeof tokens = "user") => {
        const r = await send(method, path, body, as);
        if (r.status >= 300 || (typeof r.body?.code === "number" && r.body.code !== 2000))
          throw new Error(`setup ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
        return r.body?.data ?? r.body;
      };
      return { id, send, ok };
    }
    type Org = Awaited<ReturnType<typeof organisation>>;

    /** `n` copies of one request, all started before any is awaited. */
    const burst = (fire: () => Promise<Reply>) => Promise.all(Array.from({ length: n }, fire));

    /** A practice ready for visits: clinic, provider 101, category, specialization, one billing code, a patient. */
    async function clinicWithPatient(org: Org) {
      const r = fx.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: org.id, name: `Race ${org.id}`, plan: "free", now });
      const clinic = await r.organisations.ensureClinic({ organisationId: org.id, name: "Main", timeZone: "UTC" });
      await r.organisations.upsertProvider({
        organisationId: org.id,
        userId: 101,
        firstName: "Dana",
        lastName: "Reyes",
        npi: null,
        supervisingUserId: null,
        clinicIds: [clinic.id],
      });
      const category = await r.catalog.ensureAppointmentCategory({
        organisationId: org.id,
        name: "Visit",
        type: "IN_PERSON",
        durationMinutes: 45,
      });
      await r.catalog.enableSpecialization(org.id, "MSK");
      await org.ok("POST", "/apis/v1/treatment-catalog", { codes: [EXERCISE] }, "admin");
      const patient = (
        await org.ok("POST", "/apis/v1/patient", { first_name: "Ada", last_name: "Quill", date_of_birth: "1970-07-07" })
      ).patient_id as number;
      // The case's diagnosis fills its notes' Assessment.
      const caseId = (
        await org.ok("POST", "/apis/soap-enrichment/v1/patientCase", {
          patient_id: patient,
          case_title: "Low back pain",
          specialization: "MSK",
          icd_codes: [{ id: 31, code: "M54.50", description: "Low back pain, unspecified", revision: "ICD10" }],
        })
      ).service_case_id as string;
      let slot = 0;
      const booking = (over: Record<string, unknown> = {}) => {
        slot += 1;
        return {
          doctor_id: 101,
          patient_id: patient,
          clinic_id: clinic.id,
          appointment_category: [category.id],
          timestamp: DAY + slot * HOUR,
          end_timestamp: DAY + slot * HOUR + 1800,
          payment_mode: "SELF_PAY",
          service_case_id: caseId,
          ...over,
        };
      };
      const note = async (type = "FOLLOWUP_SOAP") => {
        const appointment = (await org.ok("POST", "/apis/v1/appointment", booking())).appointment_id;
        return org.ok("POST", "/apis/hep/v2/soap-context", { patient_id: patient, type, appointment_id: appointment });
      };
      return { clinic, category, patient, booking, note };
    }

    /** Writes a section's form at its next version. */
    async function write(org: Org, submissionId: string, contextId: string, partialResponse: Record<string, unknown>) {
      const version = (await org.ok("GET", `/apis/v1/form-data/${submissionId}`)).version as number;
      return org.ok("POST", "/apis/v1/form-data/partial", {
        submissionId,
        soapContextId: contextId,
        partialResponse,
        version: version + 1,
      });
    }

    /** A note every section of which is filled, signed by its rendering physician: ready to complete. */
    async function signedNote(org: Org, visit: Awaited<ReturnType<typeof clinicWithPatient>>, type = "FOLLOWUP_SOAP") {
      const n = await visit.note(type);
      await write(org, n.subjective_submission_id, n.context_id, {
        "response.Subjective.history.chief_complaint": "Low back pain",
      });
      await write(org, n.objective_submission_id, n.context_id, {
        "response.Objective.rom.lumbar_flexion": "40 degrees",
      });
      await write(org, n.plan_submission_id, n.context_id, { "response.Plan.plan.goals": ["Lift 10 kg"] });
      await org.ok("POST", `/apis/v1/soap-context/${n.context_id}/sign`);
      return n;
    }

    /**
     * Runs `rounds` rounds of `round` (setup, then one burst) and checks every
     * round's replies: the summed tally must equal `expected` per round times
     * `rounds`, so a failure shows every outcome, 5xx included, with its count.
     */
    async function race(
      round: (org: Org) => Promise<Reply[]>,
      expected: Record<string, number>,
      options: {
        label?: (r: Reply) => string;
        check?: (replies: Reply[], org: Org) => Promise<void> | void;
        storedOrganisation?: boolean;
      } = {},
    ) {
      const seen: Record<string, number> = {};
      const failedChecks: unknown[] = [];
      for (let i = 0; i < rounds; i++) {
        const org = await organisation(options.storedOrganisation);
        const replies = await round(org);
        for (const [k, v] of Object.entries(tally(replies, options.label ?? outcome, defects)))
          seen[k] = (seen[k] ?? 0) + v;
        try {
          await options.check?.(replies, org);
        } catch (error) {
          failedChecks.push(error);
        }
      }
      expect(seen).toEqual(Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v * rounds])));
      if (failedChecks.length) throw failedChecks[0];
    }

    const ada = { first_name: "Ada", last_name: "Byron", date_of_birth: "1985-12-10" };
    /** The v1 registration names a clinic when the organisation has one (its check reads before the insert). */
    const withClinic = async (org: Org, stored: boolean) => {
      if (!stored) return ada;
      const clinic = await fx.storage.repositories.organisations.ensureClinic({
        organisationId: org.id,
        name: "Main",
        timeZone: "UTC",
      });
      return { ...ada, clinic_id: clinic.id };
    };
    const patientCreated = (r: Reply) => r.status === 201 || r.body?.code === 2000;
    const patientRefused = (r: Reply) => r.body?.code === 2301 || r.body?.error?.code === "DUPLICATE_PATIENT";

    // The rules whose first write also creates the organisation run twice: in a stored organisation, and in
    // one the burst creates (where the organisation's insert-if-absent races too and orders what follows).
    for (const stored of [true, false]) {
      const where = stored ? "" : ", in an organisation the burst creates";

      it(`[${engine}] patients (v1): one registration, the others answer 2301 with the same patient${where}`, async () => {
        await race(
          async (org) => {
            const body = await withClinic(org, stored);
            return burst(() => org.send("POST", "/apis/v1/patient", body));
          },
          { "200 2000": 1, "200 2301": n - 1 },
          {
            storedOrganisation: stored,
            check: (replies) => expect(new Set(replies.map((r) => r.body.data?.patient_id)).size).toBe(1),
          },
        );
      });

      it(`[${engine}] patients (v2): one 201, the others 409 DUPLICATE_PATIENT naming it${where}`, async () => {
        await race(
          (org) => burst(() => org.send("POST", "/v2/patients", ada)),
          { "201": 1, "409 DUPLICATE_PATIENT": n - 1 },
          {
            storedOrganisation: stored,
            check: (replies) => {
              const id = Number(replies.find((r) => r.status === 201)?.body.id);
              for (const r of replies.filter((x) => x.status === 409))
                expect(Number(r.body.error.details.existing_patient_id)).toBe(id);
            },
          },
        );
      });

      it(`[${engine}] patients (v1 and v2 mixed): one registration in all${where}`, async () => {
        await race(
          async (org) => {
            const v1 = await withClinic(org, stored);
            let i = 0;
            return burst(() =>
              i++ % 2 === 0 ? org.send("POST", "/apis/v1/patient", v1) : org.send("POST", "/v2/patients", ada),
            );
          },
          { created: 1, refused: n - 1 },
          {
            storedOrganisation: stored,
            label: (r) => (patientCreated(r) ? "created" : patientRefused(r) ? "refused" : outcome(r)),
          },
        );
      });

      it(`[${engine}] referring physicians: one per NPI, the others 409 (4095) naming it${where}`, async () => {
        const physician = { first_name: "Meredith", last_name: "Grey", npi: 1234567893 };
        await race(
          (org) => burst(() => org.send("POST", "/apis/soap-enrichment/v1/referringPhysician", physician)),
          { "200 2000": 1, "409 4095": n - 1 },
          {
            storedOrganisation: stored,
            check: (replies) => {
              const id = replies.find((r) => r.status === 200)?.body.data.ref_physician_id;
              for (const r of replies.filter((x) => x.status === 409))
                expect(r.body.details.existing_referring_physician_id).toBe(id);
            },
          },
        );
      });

      it(`[${engine}] webhook subscriptions: one per URL and event, the others 409 DUPLICATE_SUBSCRIPTION${where}`, async () => {
        const subscription = {
          name: "race",
          event_types: ["patient.updated"],
          notification_url: "http://127.0.0.1:9/race",
        };
        await race(
          (org) => burst(() => org.send("POST", "/apis/v1/webhooks/subscriptions", subscription)),
          { "201": 1, "409 DUPLICATE_SUBSCRIPTION": n - 1 },
          { storedOrganisation: stored },
        );
      });

      it(`[${engine}] billing catalog codes: one upload creates the code, the others update it${where}`, async () => {
        await race(
          (org) => burst(() => org.send("POST", "/apis/v1/treatment-catalog", { codes: [EXERCISE] }, "admin")),
          { "200 created": 1, "200 updated": n - 1 },
          {
            storedOrganisation: stored,
            label: (r) =>
              r.body?.code === 2000 ? `200 ${r.body.data.created === 1 ? "created" : "updated"}` : outcome(r),
          },
        );
      });
    }

    it(`[${engine}] patients, updated: ${n} patients renamed to one identity at once, one 200, the others 409 DUPLICATE_PATIENT`, async () => {
      await race(
        async (org) => {
          const ids: number[] = [];
          for (let i = 0; i < n; i++)
            ids.push(Number((await org.ok("POST", "/v2/patients", { ...ada, first_name: `Ada${"a".repeat(i)}` })).id));
          return Promise.all(
            ids.map((id) => org.send("PATCH", `/v2/patients/${id}`, { first_name: "Grace", last_name: "Hopper" })),
          );
        },
        { "200": 1, "409 DUPLICATE_PATIENT": n - 1 },
      );
    });

    it(`[${engine}] referring physicians, updated: ${n} physicians given one NPI at once, one 200, the others 409 (4095) naming it`, async () => {
      await race(
        async (org) => {
          const ids: number[] = [];
          for (let i = 0; i < n; i++)
            ids.push(
              (
                await org.ok("POST", "/apis/soap-enrichment/v1/referringPhysician", {
                  first_name: "Derek",
                  last_name: `Shepherd ${i}`,
                  npi: null,
                })
              ).ref_physician_id,
            );
          return Promise.all(
            ids.map((id) => org.send("POST", `/apis/soap-enrichment/v1/referringPhysician/${id}`, { npi: 1234567893 })),
          );
        },
        { "200 2000": 1, "409 4095": n - 1 },
        {
          check: (replies) => {
            const id = replies.find((r) => r.status === 200)?.body.data.ref_physician_id;
            for (const r of replies.filter((x) => x.status === 409))
              expect(r.body.details.existing_referring_physician_id).toBe(id);
          },
        },
      );
    });

    it(`[${engine}] push devices: one per endpoint (201), the others re-register it (200) with the same id`, async () => {
      await race(
        (org) => {
          const ecdh = createECDH("prime256v1");
          ecdh.generateKeys();
          const device = {
            user_id: "u-1",
            user_type: "PATIENT",
            endpoint: `http://127.0.0.1:9/push/${org.id}`,
            keys: { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") },
          };
          return burst(() => org.send("POST", "/apis/v1/notifications/devices", device));
        },
        { "201": 1, "200": n - 1 },
        { check: (replies) => expect(new Set(replies.map((r) => r.body.device_id ?? r.body.id)).size).toBe(1) },
      );
    });

    it(`[${engine}] notification idempotency keys: every request 202, one first, the others replayed with the same id`, async () => {
      const message = {
        recipient: { user_id: "u-1", user_type: "PATIENT" },
        notification: { title: "Moved", body: "Your visit moved" },
        idempotency_key: "race-key",
      };
      await race(
        (org) => burst(() => org.send("POST", "/apis/v1/notifications/deliver", message)),
        { "202 first": 1, "202 replayed": n - 1 },
        {
          label: (r) =>
            r.status === 202
              ? `202 ${r.headers.get("idempotent-replayed") === "true" ? "replayed" : "first"}`
              : outcome(r),
          check: (replies) => expect(new Set(replies.map((r) => r.body.notification_id)).size).toBe(1),
        },
      );
    });

    it(`[${engine}] form versions: one write per version, the others 409 VERSION_CONFLICT (4097)`, async () => {
      await race(
        async (org) => {
          const visit = await clinicWithPatient(org);
          const note = await visit.note();
          const version = (await org.ok("GET", `/apis/v1/form-data/${note.subjective_submission_id}`))
            .version as number;
          return burst(() =>
            org.send("POST", "/apis/v1/form-data/partial", {
              submissionId: note.subjective_submission_id,
              soapContextId: note.context_id,
              partialResponse: { "response.Subjective.history.chief_complaint": "race" },
              version: version + 1,
            }),
          );
        },
        { "200 2000": 1, "409 4097": n - 1 },
      );
    });

    it(`[${engine}] treatment sheets: one per note, the others 409 TREATMENT_SHEET_EXISTS (4098)`, async () => {
      await race(
        async (org) => {
          const visit = await clinicWithPatient(org);
          const note = await visit.note();
          const catalog = (await org.ok("GET", "/apis/v1/treatment-catalog")) as {
            code: string;
            treatment_class_id: number;
          }[];
          const sheet = {
            patient_id: String(visit.patient),
            soap_context_id: note.context_id,
            treatments: [{ treatment_class_id: catalog[0]!.treatment_class_id, duration: 15, units: 1 }],
          };
          return burst(() => org.send("POST", "/apis/v1/treatment-sheet", sheet));
        },
        { "200 2000": 1, "409 4098": n - 1 },
      );
    });

    it(`[${engine}] note completion: one completes (and submits one claim), the others 409 INVALID_TRANSITION (4092)`, async () => {
      await race(
        async (org) => {
          const visit = await clinicWithPatient(org);
          await org.ok("POST", "/apis/v1/organisation/settings", { auto_submit_billing: true }, "admin");
          const note = await signedNote(org, visit);
          return burst(() =>
            org.send("POST", `/apis/v1/soap-context/${note.context_id}`, {
              completed: true,
              status: "COMPLETED",
              completed_at: null,
            }),
          );
        },
        { "200 2000": 1, "409 4092": n - 1 },
        {
          check: async (replies, org) => {
            const done = replies.find((r) => r.body?.code === 2000)?.body.data;
            expect(done?.billing_status).toBe("SUBMITTED");
            expect((await org.ok("GET", `/apis/v1/soap-context/${done.context_id}/claim`)).status).toBe("SUBMITTED");
          },
        },
      );
    });

    it(`[${engine}] plans of care: completing ${n} evaluations of one case at once leaves one plan, updated by each`, async () => {
      await race(
        async (org) => {
          const visit = await clinicWithPatient(org);
          // Prepared side by side (each note in its own slot) to keep the round short; only the completions race.
          const notes = await Promise.all(Array.from({ length: n }, () => signedNote(org, visit, "INITIAL_SOAP")));
          return Promise.all(
            notes.map((note) =>
              org.send("POST", `/apis/v1/soap-context/${note.context_id}`, {
                completed: true,
                status: "COMPLETED",
                completed_at: null,
              }),
            ),
          );
        },
        { "200 2000": n },
        {
          check: async (replies, org) => {
            const plans = [...new Set(replies.map((r) => r.body.data?.plan_of_care_id))];
            expect(plans).toHaveLength(1);
            expect((await org.ok("GET", `/apis/v1/plan-of-care/${plans[0]}`)).version).toBe(n);
          },
        },
      );
    });

    it(`[${engine}] reference data (seeded, no route): ${n} concurrent transactions ensuring one clinic, provider, category, reason and specialization end with one of each`, async () => {
      for (let round = 0; round < rounds; round++) {
        const org = await organisation();
        const results = await Promise.allSettled(
          Array.from({ length: n }, () =>
            fx.storage.transaction(async (tx) => {
              await tx.organisations.ensure({ id: org.id, name: "Race", plan: "free", now: new Date() });
              const clinic = await tx.organisations.ensureClinic({
                organisationId: org.id,
                name: "Main",
                timeZone: "UTC",
              });
              const provider = await tx.organisations.upsertProvider({
                organisationId: org.id,
                userId: 101,
                firstName: "Dana",
                lastName: "Reyes",
                npi: null,
                supervisingUserId: null,
                clinicIds: [clinic.id],
              });
              const category = await tx.catalog.ensureAppointmentCategory({
                organisationId: org.id,
                name: "Visit",
                type: "IN_PERSON",
                durationMinutes: 45,
              });
              const reason = await tx.catalog.ensureCancellationReason({
                organisationId: org.id,
                reasonKey: "ILL",
                reasonLabel: "Ill",
                cancellationFee: 0,
                status: "ACTIVE",
              });
              await tx.catalog.enableSpecialization(org.id, "MSK");
              return [clinic.id, provider.id, category.id, reason.id].join();
            }),
          ),
        );
        expect(
          results
            .filter((r) => r.status === "rejected")
            .map((r) => String((r as PromiseRejectedResult).reason?.message)),
        ).toEqual([]);
        expect(new Set(results.map((r) => (r as PromiseFulfilledResult<string>).value)).size).toBe(1);
        const r = fx.storage.repositories;
        expect([
          (await r.organisations.listClinics(org.id)).length,
          (await r.organisations.listProviders(org.id)).map((p) => p.clinicIds.length),
          (await r.catalog.listAppointmentCategories(org.id)).length,
          (await r.catalog.listCancellationReasons(org.id)).length,
          await r.catalog.listSpecializations(org.id),
        ]).toEqual([1, [1], 1, 1, ["MSK"]]);
      }
    });

    it(`[${engine}] bookings: one appointment per doctor and slot, the others 409 SCHEDULE_CONFLICT (4091)`, async () => {
      await race(
        async (org) => {
          const visit = await clinicWithPatient(org);
          const body = visit.booking();
          return burst(() => org.send("POST", "/apis/v1/appointment", body));
        },
        { "200 2000": 1, "409 4091": n - 1 },
      );
    });
  });
}
