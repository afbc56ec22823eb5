import { FileSystemDocumentStore } from "@openpractice/files";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { fhirProblems } from "../support/fhir-validation.js";
import { multipartBody } from "../support/multipart.js";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";

// Issue 51, part 3: FHIR Bulk Data export over HTTP on every engine. A SMART backend-services client (oauth4webapi,
// private_key_jwt) kicks off a system export, polls its status, and downloads the NDJSON files with the same token;
// every line validates against FHIR R4 (@medplum/core) and matches the v2 records one for one. Files are split at
// the configured size; `_type` and `_since` narrow; DELETE cancels; bad kick-offs are OperationOutcomes naming the
// parameter; an export queued when its process stops is finished by the next one.

type Json = any;
const PATIENTS = 130;
const PER_FILE = 100;

for (const engine of availableEngines()) {
  describe(`[${engine}] FHIR Bulk Data export`, () => {
    let rt: TestRuntime;
    let admin = "";
    let system = "";
    const ids = { patients: [] as string[], appointments: [] as string[], clinic: "", coverage: "", document: "" };

    const v2 = async (method: string, path: string, body?: unknown, token = admin) => {
      const res = await rt.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      const json = await res.json();
      expect(res.status, JSON.stringify(json)).toBeLessThan(300);
      return json;
    };
    /** Every record of a v2 list, page by page. */
    const v2All = async (path: string) => {
      const out: Json[] = [];
      for (let page = 1; ; page++) {
        const body = await v2("GET", `${path}${path.includes("?") ? "&" : "?"}page=${page}&per_page=100`);
        out.push(...body.data);
        if (!body.pagination.has_next) return out;
      }
    };
    const kickOff = (path: string, token = system, headers: Record<string, string> = {}) =>
      rt.call("GET", path, {
        token,
        headers: { accept: "application/fhir+json", prefer: "respond-async", ...headers },
      });
    /** Polls the status URL until it answers something other than 202; returns that answer and the progress seen. */
    const settle = async (statusUrl: string, token = system, on = rt) => {
      const progress: string[] = [];
      for (let i = 0; i < 600; i++) {
        const res = await on.call("GET", new URL(statusUrl).pathname, { token });
        if (res.status !== 202) return { res, progress };
        expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
        progress.push(res.headers.get("x-progress") ?? "");
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error("the export did not finish");
    };
    const download = async (url: string, token = system, on = rt) => {
      const res = await on.call("GET", new URL(url).pathname, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/fhir+ndjson");
      const text = await res.text();
      expect(text.endsWith("\n")).toBe(true);
      return text
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line));
    };

    beforeAll(async () => {
      rt = await startTestRuntime(
        {
          OPENPRACTICE_PLAN_LIMITS: '{"free":100000}',
          OPENPRACTICE_WORKER_POLL_MS: "50",
          OPENPRACTICE_BULK_EXPORT_RESOURCES_PER_FILE: String(PER_FILE),
        },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      ids.clinic = (
        await v2("POST", "/v2/clinics", {
          name: "Riverside Physical Therapy",
          time_zone: "America/Chicago",
          address: { street: "200 Main St", city: "Springfield", state: "IL", zip_code: "62701", country: "US" },
          phone: "+1-217-555-0100",
        })
      ).id;
      await v2("POST", "/v2/providers", {
        user_id: "7101",
        first_name: "Dana",
        last_name: "Reyes",
        npi: "1234567893",
        credentials: ["DPT"],
        clinic_ids: [ids.clinic],
      });
      for (let i = 0; i < PATIENTS; i++)
        ids.patients.push(
          (
            await v2("POST", "/v2/patients", {
              first_name: `Pat${i}`,
              last_name: i % 2 ? "Kowalski" : "Nunez",
              date_of_birth: `19${50 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
              gender: i % 3 ? "female" : "male",
            })
          ).id,
        );
      const category = await rt.runtime.practice.storage.repositories.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Follow-up",
        type: "IN_PERSON",
        durationMinutes: 30,
      });
      for (const [i, at] of ["2031-03-03T15:00:00Z", "2031-03-04T15:00:00Z", "2031-03-05T15:00:00Z"].entries()) {
        const starts = Date.parse(at) / 1000;
        const res = await rt.call("POST", "/apis/v1/appointment", {
          token: admin,
          body: {
            doctor_id: 7101,
            patient_id: Number(ids.patients[i]),
            clinic_id: Number(ids.clinic),
            appointment_category: [category.id],
            timestamp: starts,
            end_timestamp: starts + 1800,
            payment_mode: "SELF_PAY",
          },
        });
        const json = await res.json();
        expect(json.code, JSON.stringify(json)).toBe(2000);
        ids.appointments.push(String(json.data.appointment_id));
      }
      // The first visit happened: an Encounter.
      for (const action of ["check-in", "start", "check-out"])
        expect(
          (await rt.call("POST", `/apis/v1/appointment/${ids.appointments[0]}/${action}`, { token: admin })).status,
        ).toBe(200);
      // The visit's note, completed with two diagnoses: two Conditions.
      const dana = await rt.token({ userId: 7101, scope: "read write" });
      const post = async (path: string, body?: unknown) => {
        const res = await rt.call("POST", path, { token: dana, ...(body === undefined ? {} : { body }) });
        const json = await res.json();
        expect(json.code, `${path}: ${JSON.stringify(json)}`).toBe(2000);
        return json.data;
      };
      const note = await post("/apis/hep/v2/soap-context", {
        patient_id: Number(ids.patients[0]),
        type: "FOLLOWUP_SOAP",
        appointment_id: Number(ids.appointments[0]),
      });
      const write = async (submissionId: string, partialResponse: Record<string, unknown>) => {
        const current = (await (await rt.call("GET", `/apis/v1/form-data/${submissionId}`, { token: dana })).json())
          .data;
        await post("/apis/v1/form-data/partial", {
          submissionId,
          soapContextId: note.context_id,
          partialResponse,
          version: current.version + 1,
        });
      };
      await write(note.subjective_submission_id, { "response.Subjective.history.chief_complaint": "Low back pain" });
      await write(note.objective_submission_id, { "response.Objective.rom.lumbar": "Flexion 40 degrees" });
      const dx = (code: string, description: string, primary: boolean) => ({
        uuid: `dx-${code}`,
        id: 1,
        code,
        description,
        revision: "ICD10",
        billing_type: null,
        is_primary: primary,
      });
      await write(note.assessment_submission_id, {
        "response.Assessment.diagnosis.medical_diagnosis": [
          dx("M54.50", "Low back pain, unspecified", true),
          dx("M62.81", "Muscle weakness (generalized)", false),
        ],
      });
      await post(`/apis/v1/soap-context/${note.context_id}/sign`);
      await post(`/apis/v1/soap-context/${note.context_id}`, {
        completed: true,
        status: "COMPLETED",
        completed_at: null,
      });
      const payer = await v2("POST", "/v2/payers", { payer_id: "MACB1", name: "Novitas Part B", type: "medicare" });
      ids.coverage = (
        await v2("POST", `/v2/patients/${ids.patients[0]}/coverages`, {
          payer_ref: payer.id,
          member_id: "1EG4-TE5-MK72",
          priority: "primary",
        })
      ).id;
      const letter = multipartBody([
        { name: "category", value: "referral" },
        { name: "title", value: "Referral from Dr. Park" },
        { name: "file", value: "Referral: 8 visits.\n", fileName: "referral.txt", contentType: "text/plain" },
      ]);
      const uploaded = await rt.call("POST", `/apis/v1/patient/${ids.patients[0]}/documents`, {
        token: admin,
        body: letter.body.toString("latin1"),
        headers: { "content-type": letter.contentType },
      });
      ids.document = String((await uploaded.json()).data.id);
      // Another organisation's patient: never exported here.
      await v2(
        "POST",
        "/v2/patients",
        { first_name: "Other", last_name: "Org", date_of_birth: "1960-01-01" },
        await rt.token({ organisationId: 2, scope: "read write" }),
      );
      // The SMART backend-services client, its token obtained with private_key_jwt by oauth4webapi.
      const keys = await generateKeyPair("ES384", { extractable: true });
      const client = await v2("POST", "/v2/api-clients", {
        name: "Payer analytics",
        scopes: ["system/*.rs"],
        jwks: { keys: [{ ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "ES384" }] },
      });
      const tokenEndpoint = `${rt.url}/oauth/token`;
      const as: oauth.AuthorizationServer = { issuer: rt.url, token_endpoint: tokenEndpoint };
      const response = await oauth.clientCredentialsGrantRequest(
        as,
        { client_id: client.client_id },
        oauth.PrivateKeyJwt(
          { key: keys.privateKey, kid: "k1" },
          {
            [oauth.modifyAssertion]: (_h, payload) => {
              payload.aud = tokenEndpoint;
            },
          },
        ),
        new URLSearchParams({ scope: "system/*.rs" }),
        { [oauth.allowInsecureRequests]: true },
      );
      system = (await oauth.processClientCredentialsResponse(as, { client_id: client.client_id }, response))
        .access_token;
    });
    afterAll(async () => {
      await rt?.stop();
    });

    it("exports the organisation as NDJSON that validates and matches the v2 records one for one", async () => {
      // The CapabilityStatement names the two kick-offs.
      const meta = await (await rt.call("GET", "/fhir/R4/metadata", { token: null })).json();
      const bulk = "http://hl7.org/fhir/uv/bulkdata/OperationDefinition";
      expect(meta.rest[0].operation).toEqual([{ name: "export", definition: `${bulk}/export` }]);
      expect(meta.rest[0].resource.find((r: Json) => r.type === "Patient").operation).toEqual([
        { name: "export", definition: `${bulk}/patient-export` },
      ]);
      expect(fhirProblems(meta)).toEqual([]);
      // The completed note's visit summary reaches the chart (the worker renders it): wait for its document.
      let documents: Json[] = [];
      for (let i = 0; i < 200 && documents.length < 2; i++) {
        const page = await (
          await rt.call("GET", `/fhir/R4/DocumentReference?patient=${ids.patients[0]}`, { token: system })
        ).json();
        documents = (page.entry ?? []).map((e: Json) => e.resource);
        if (documents.length < 2) await new Promise((r) => setTimeout(r, 50));
      }
      expect(documents).toHaveLength(2);
      const started = await kickOff("/fhir/R4/$export");
      expect(started.status, await started.clone().text()).toBe(202);
      const statusUrl = started.headers.get("content-location") ?? "";
      expect(statusUrl).toMatch(/\/fhir\/R4\/\$export-status\/[0-9a-f-]{36}$/);
      const { res, progress } = await settle(statusUrl);
      expect(res.status).toBe(200);
      expect(progress.every((p) => /^(queued|\d+ resources written(; writing \w+)?)$/.test(p))).toBe(true);
      expect(res.headers.get("expires")).toBeTruthy();
      const manifest = await res.json();
      expect(manifest).toMatchObject({
        request: `${rt.url}/fhir/R4/$export`,
        requiresAccessToken: true,
        error: [],
      });
      expect(Date.parse(manifest.transactionTime)).not.toBeNaN();
      // 130 patients at 100 a file: two Patient files, then one file per other type that has records.
      expect(manifest.output.map((o: Json) => `${o.type}:${o.count}`)).toEqual([
        `Patient:${PER_FILE}`,
        `Patient:${PATIENTS - PER_FILE}`,
        "Coverage:1",
        "Appointment:3",
        "Encounter:1",
        "Condition:2",
        "DocumentReference:2",
        "Organization:1",
        "Location:1",
        "Practitioner:1",
        "PractitionerRole:1",
      ]);
      const byType = new Map<string, Json[]>();
      for (const o of manifest.output) {
        const lines = await download(o.url);
        expect(lines).toHaveLength(o.count);
        byType.set(o.type, [...(byType.get(o.type) ?? []), ...lines]);
      }
      for (const [type, resources] of byType)
        for (const r of resources) {
          expect(r.resourceType).toBe(type);
          expect(fhirProblems(r), `${type}/${r.id}`).toEqual([]);
        }
      // One for one with v2: every patient once, with its name, birth date and gender; nothing of organisation 2.
      const patients = await v2All("/v2/patients");
      const exported = new Map((byType.get("Patient") ?? []).map((p) => [p.id, p]));
      expect([...exported.keys()].sort()).toEqual(patients.map((p) => String(p.id)).sort());
      for (const p of patients) {
        const r = exported.get(String(p.id));
        expect(r.name[0].family).toBe(p.last_name);
        expect(r.name[0].given[0]).toBe(p.first_name);
        expect(r.birthDate).toBe(p.date_of_birth);
        expect(r.gender).toBe(p.gender);
      }
      const appointments = await v2All("/v2/appointments");
      expect((byType.get("Appointment") ?? []).map((a) => a.id).sort()).toEqual(
        appointments.map((a) => String(a.id)).sort(),
      );
      for (const a of byType.get("Appointment") ?? []) {
        const record = appointments.find((x) => String(x.id) === a.id);
        expect(a.start).toBe(new Date(record.start).toISOString());
        expect(a.participant.some((x: Json) => x.actor.reference === `Patient/${record.patient_id}`)).toBe(true);
      }
      expect((byType.get("Encounter") ?? []).map((e) => [e.id, e.status])).toEqual([[ids.appointments[0], "finished"]]);
      expect((byType.get("Coverage") ?? []).map((c) => c.id)).toEqual([ids.coverage]);
      // The Conditions are exactly what the facade's search answers for the patient.
      const conditions = await (
        await rt.call("GET", `/fhir/R4/Condition?patient=${ids.patients[0]}`, { token: system })
      ).json();
      expect(byType.get("Condition")).toEqual(conditions.entry.map((e: Json) => e.resource));
      expect((byType.get("DocumentReference") ?? []).map((d) => d.id)).toContain(ids.document);
      expect(byType.get("DocumentReference")).toEqual([...documents].sort((a, b) => Number(a.id) - Number(b.id)));
      expect((byType.get("Location") ?? []).map((l) => l.id)).toEqual([ids.clinic]);
      // The same resources the facade's reads answer.
      const read = await (await rt.call("GET", `/fhir/R4/Patient/${ids.patients[5]}`, { token: system })).json();
      expect(exported.get(ids.patients[5] as string)).toEqual(read);
    });

    it("narrows by _type and _since, and keeps files to their requester", async () => {
      const before = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 20));
      await v2("PATCH", `/v2/patients/${ids.patients[7]}`, { last_name: "Changed" });
      const started = await kickOff(
        `/fhir/R4/Patient/$export?_type=Patient,Coverage&_since=${encodeURIComponent(before)}`,
      );
      expect(started.status).toBe(202);
      const statusUrl = started.headers.get("content-location") ?? "";
      const { res } = await settle(statusUrl);
      const manifest = await res.json();
      expect(manifest.output.map((o: Json) => o.type)).toEqual(["Patient"]);
      const lines = await download(manifest.output[0].url);
      expect(lines.map((p) => [p.id, p.name[0].family])).toEqual([[ids.patients[7], "Changed"]]);
      // Another requester (the admin's user token) neither sees the status nor the file; no token is 401.
      expect((await rt.call("GET", new URL(statusUrl).pathname, { token: admin })).status).toBe(404);
      const foreign = await rt.call("GET", new URL(manifest.output[0].url).pathname, { token: admin });
      expect(foreign.status).toBe(404);
      expect((await foreign.json()).resourceType).toBe("OperationOutcome");
      expect((await rt.call("GET", new URL(manifest.output[0].url).pathname, { token: null })).status).toBe(401);
      // DELETE discards the finished export: the status and the file answer 404 from then on.
      expect((await rt.call("DELETE", new URL(statusUrl).pathname, { token: system })).status).toBe(202);
      expect((await rt.call("GET", new URL(statusUrl).pathname, { token: system })).status).toBe(404);
      expect((await rt.call("GET", new URL(manifest.output[0].url).pathname, { token: system })).status).toBe(404);
      // The purge removes an expired export's files from the store and its rows.
      const files = await rt.rawRows(
        "SELECT storage_key FROM bulk_export_files WHERE export_id = ?",
        new URL(statusUrl).pathname.split("/").pop(),
      );
      expect(files).toHaveLength(1);
      const store = new FileSystemDocumentStore({ directory: `${rt.dataDir}/documents` });
      const key = String(files[0]?.storage_key);
      await expect(store.get(key)).resolves.toBeDefined();
      expect(await rt.runtime.practice.bulkExports.purgeExpired(100)).toBeGreaterThanOrEqual(1);
      await expect(store.get(key)).rejects.toThrow(/No stored object/);
      const left = await rt.rawRows(
        "SELECT id FROM bulk_exports WHERE id = ?",
        new URL(statusUrl).pathname.split("/").pop(),
      );
      expect(left).toHaveLength(0);
    });

    it("serves files only to the same user and client, still reaching the type and the clinics", async () => {
      const shared = (userId: number, scope = "read") =>
        new SignJWT({ organisation_id: 1, user_id: userId, client_id: "opc_web_app", scope })
          .setProtectedHeader({ alg: "HS256", typ: "JWT" })
          .setSubject(String(userId))
          .setIssuedAt()
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode(TEST_SECRET));
      const ada = await shared(501);
      const started = await kickOff("/fhir/R4/$export?_type=Patient", ada);
      expect(started.status).toBe(202);
      const statusUrl = started.headers.get("content-location") ?? "";
      const { res } = await settle(statusUrl, ada);
      const fileUrl = (await res.json()).output[0].url;
      expect((await download(fileUrl, ada)).length).toBe(PER_FILE);
      // Another user signed in through the same web app (same client id): not theirs.
      const ben = await shared(502);
      expect((await rt.call("GET", new URL(statusUrl).pathname, { token: ben })).status).toBe(404);
      expect((await rt.call("GET", new URL(fileUrl).pathname, { token: ben })).status).toBe(404);
      expect((await rt.call("DELETE", new URL(statusUrl).pathname, { token: ben })).status).toBe(404);
      // The same requester with a token that no longer reads Patient, or restricted to one clinic: not found.
      const narrower = await shared(501, "system/Location.rs");
      expect((await rt.call("GET", new URL(statusUrl).pathname, { token: narrower })).status).toBe(200);
      expect((await rt.call("GET", new URL(fileUrl).pathname, { token: narrower })).status).toBe(404);
      const oneClinic = await new SignJWT({
        organisation_id: 1,
        user_id: 501,
        client_id: "opc_web_app",
        scope: "read",
        clinic_id_list: [Number(ids.clinic)],
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject("501")
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(new TextEncoder().encode(TEST_SECRET));
      expect((await rt.call("GET", new URL(fileUrl).pathname, { token: oneClinic })).status).toBe(404);
      expect((await rt.call("GET", new URL(fileUrl).pathname, { token: ada })).status).toBe(200);
    });

    it("refuses bad kick-offs with an OperationOutcome naming the parameter, and writes nothing", async () => {
      const count = async () =>
        Number((await rt.rawRows("SELECT COUNT(*) AS n FROM bulk_exports"))[0]?.n ?? Number.NaN);
      const before = await count();
      const refusals: Array<[string, Record<string, string>, number, string]> = [
        ["/fhir/R4/$export", { prefer: "" }, 400, "Prefer"],
        ["/fhir/R4/$export?_type=Patient,MedicationRequest", {}, 400, "_type"],
        ["/fhir/R4/Patient/$export?_type=Location", {}, 400, "_type"],
        ["/fhir/R4/$export?_since=2026-01-01", {}, 400, "_since"],
        ["/fhir/R4/$export?_since=2026-01-01T10:00Z", {}, 400, "_since"],
        ["/fhir/R4/$export?_since=2026-02-30T10:00:00Z", {}, 400, "_since"],
        ["/fhir/R4/$export?_since=2999-01-01T00:00:00Z", {}, 400, "_since"],
        ["/fhir/R4/$export?_outputFormat=text/csv", {}, 400, "_outputFormat"],
        ["/fhir/R4/$export?_typeFilter=Patient%3Fgender%3Dmale", {}, 400, "_typeFilter"],
        ["/fhir/R4/$export?_format=xml&_elements=id", {}, 400, "_format"],
      ];
      for (const [path, headers, status, field] of refusals) {
        const res = await kickOff(path, system, headers);
        const body = await res.json();
        expect(res.status, `${path}: ${JSON.stringify(body)}`).toBe(status);
        expect(body.resourceType).toBe("OperationOutcome");
        expect(
          body.issue.flatMap((i: Json) => i.expression ?? []),
          path,
        ).toContain(field);
      }
      // `patient` narrows to some patients: never ignored, even when lenient.
      const lenientPatient = await kickOff("/fhir/R4/Patient/$export?patient=Patient/1", system, {
        prefer: "respond-async, handling=lenient",
      });
      expect(lenientPatient.status).toBe(400);
      // HEAD reaches GET routes; it starts nothing.
      const head = await rt.call("HEAD", "/fhir/R4/$export", { token: system, headers: { prefer: "respond-async" } });
      expect(head.status).toBe(405);
      // A type the token may not read: 403 naming it (a Patient-only client).
      const patientOnly = await rt.token({ scope: "system/Patient.rs" });
      const forbidden = await kickOff("/fhir/R4/$export?_type=Patient,Location", patientOnly);
      expect(forbidden.status).toBe(403);
      expect(await count()).toBe(before);
      // Without _type, a narrower token exports only what it reads.
      const narrow = await kickOff("/fhir/R4/$export", patientOnly);
      expect(narrow.status).toBe(202);
      const { res } = await settle(narrow.headers.get("content-location") ?? "", patientOnly);
      expect(new Set((await res.json()).output.map((o: Json) => o.type))).toEqual(new Set(["Patient"]));
    });

    it("finishes an export queued when its process stopped, in the next process, and limits those in progress", async () => {
      // A process of its own database whose worker looks for work once a minute: kick-offs wait in the queue.
      const first = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "60000" },
        { engine },
      );
      const shared = { OPENPRACTICE_DATA_DIR: first.dataDir, OPENPRACTICE_WORKER_POLL_MS: "50" };
      let next: TestRuntime | undefined;
      try {
        const owner = await first.token({ scope: "admin read write" });
        for (const name of ["Ada", "Alan", "Grace"])
          expect(
            (
              await first.call("POST", "/v2/patients", {
                token: owner,
                body: { first_name: name, last_name: "Queued", date_of_birth: "1970-01-01" },
              })
            ).status,
          ).toBe(201);
        const kick = () =>
          first.call("GET", "/fhir/R4/$export?_type=Patient", { token: owner, headers: { prefer: "respond-async" } });
        const urls: string[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await kick();
          expect(res.status).toBe(202);
          urls.push(res.headers.get("content-location") ?? "");
        }
        // Three in progress: a fourth is refused, and nothing is written for it.
        const limited = await kick();
        expect(limited.status).toBe(429);
        const outcome = await limited.json();
        expect(outcome.issue[0].details.text).toBe("BULK_EXPORT_LIMIT_REACHED");
        expect(await first.scalar("SELECT COUNT(*) FROM bulk_exports")).toBe(3);
        // Cancelling one frees its place; its status answers 404 from then on.
        expect((await first.call("DELETE", new URL(urls[2] as string).pathname, { token: owner })).status).toBe(202);
        expect((await first.call("GET", new URL(urls[2] as string).pathname, { token: owner })).status).toBe(404);
        const queued = await first.call("GET", new URL(urls[0] as string).pathname, { token: owner });
        expect(queued.status).toBe(202);
        expect(queued.headers.get("x-progress")).toBe("queued");
        await first.runtime.stop();
        // The next process (same database and data directory) runs the queued exports to completion.
        next = await startTestRuntime(shared, { shareDatabaseOf: first });
        for (const url of urls.slice(0, 2)) {
          const { res } = await settle(url, owner, next);
          expect(res.status).toBe(200);
          const manifest = await res.json();
          const lines = (await Promise.all(manifest.output.map((o: Json) => download(o.url, owner, next)))).flat();
          expect(lines.map((p: Json) => p.name[0].given[0]).sort()).toEqual(["Ada", "Alan", "Grace"]);
        }
        // The cancelled one never ran.
        expect(await next.scalar("SELECT status FROM bulk_exports WHERE id = ?", urls[2]?.split("/").pop())).toBe(
          "cancelled",
        );
      } finally {
        await next?.stop();
        await first.stop();
      }
    });
  });
}
