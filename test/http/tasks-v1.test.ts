import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { FakePushService } from "../support/push-service.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const DAY = Math.floor(Date.parse("2031-09-01T00:00:00Z") / 1000);
const HOUR = 3600;
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

// Tasks on v1 (issue 48) over HTTP, on every engine this run has: a person's task assigned (inbox entry and a
// decrypted Web Push), commented, worked and completed; the concurrent-completion race; the system's rules (a note
// awaiting co-signature, an authorization running low, across a restart); overdue once; bad input that writes
// nothing; the three events delivered signed.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 tasks`, () => {
    let rt: TestRuntime;
    let receiver: WebhookReceiver;
    let push: FakePushService;
    let secret = "";
    let admin = "";
    let supervisor = "";
    const ids = { clinic: 0, category: 0, patient: 0, other: 0, staff: 0, caseId: "" };
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const post = (path: string, body?: unknown, token?: string) => call("POST", path, body, token);
    const get = (path: string, token?: string) => call("GET", path, undefined, token);
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const until = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const systemTasks = async (rule: string) =>
      (await get(`/apis/v1/tasks?rule=${rule}&status=open,in_progress,done,cancelled&size=100`)).body.data.tasks as {
        id: number;
        status: string;
        subject: { id: string };
        assignee: unknown;
        resolution: string | null;
      }[];

    let slot = 0;
    const note = async () => {
      slot += 1;
      const appointment = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: ids.patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + slot * HOUR,
        end_timestamp: DAY + slot * HOUR + 1800,
        payment_mode: "SELF_PAY",
      });
      expect(appointment.body.code).toBe(2000);
      const n = (
        await post("/apis/hep/v2/soap-context", {
          patient_id: ids.patient,
          type: "FOLLOWUP_SOAP",
          appointment_id: appointment.body.data.appointment_id,
        })
      ).body.data;
      for (const [submission, path, value] of [
        [n.subjective_submission_id, "response.Subjective.history.chief_complaint", "Neck pain"],
        [n.objective_submission_id, "response.Objective.rom.cervical_rotation", "60 degrees"],
        [
          n.assessment_submission_id,
          "response.Assessment.diagnosis.medical_diagnosis",
          [
            {
              uuid: "u-1",
              id: 40,
              code: "M54.2",
              description: "Cervicalgia",
              revision: "ICD10",
              billing_type: "BILLABLE",
              is_primary: true,
            },
          ],
        ],
      ]) {
        const version = (await get(`/apis/v1/form-data/${submission}`)).body.data.version;
        const written = await post("/apis/v1/form-data/partial", {
          submissionId: submission,
          soapContextId: n.context_id,
          partialResponse: { [path]: value },
          version: version + 1,
        });
        expect(written.status).toBe(200);
      }
      const signed = await post(`/apis/v1/soap-context/${n.context_id}/sign`);
      expect(signed.body, JSON.stringify(signed.body)).toMatchObject({ code: 2000, data: { status: "COSIGN" } });
      return n.context_id as string;
    };

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      push = await new FakePushService().start();
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      admin = await rt.token({ scope: "admin read write" });
      supervisor = await rt.token({ userId: 103 });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Riverside Therapy", plan: "free", now });
      await r.organisations.ensure({ id: 2, name: "Elsewhere", plan: "free", now });
      ids.clinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Main Street", timeZone: "America/Chicago" })
      ).id;
      for (const [userId, supervising] of [
        [101, 103],
        [103, null],
        [104, null],
      ] as const)
        await r.organisations.upsertProvider({
          organisationId: 1,
          userId,
          firstName: "Dr",
          lastName: String(userId),
          npi: null,
          supervisingUserId: supervising,
          clinicIds: [ids.clinic],
        });
      ids.category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 45,
        })
      ).id;
      await r.catalog.enableSpecialization(1, "MSK");
      for (const key of ["patient", "other"] as const)
        ids[key] = Number(
          (await post("/v2/patients", { first_name: key, last_name: "Tasks", date_of_birth: "1970-01-01" })).body.id,
        );
      ids.staff = Number(
        (
          await post(
            "/v2/staff",
            { first_name: "Rosa", last_name: "Front", email: "rosa@clinic.test", roles: ["front_desk"] },
            admin,
          )
        ).body.id,
      );
      const subscription = await post("/apis/v1/webhooks/subscriptions", {
        name: "Tasks",
        event_types: ["task.created", "task.updated", "task.completed"],
        notification_url: `${receiver.url}/hooks/tasks`,
        signature_format: "standard",
      });
      expect(subscription.status).toBe(201);
      secret = subscription.body.standard_webhooks_secret;
    });
    afterAll(async () => {
      await rt?.stop();
      await receiver?.stop();
      await push?.stop();
    });

    it("a person creates and assigns a task (inbox entry, decrypted Web Push), comments, starts and completes it; events signed", async () => {
      const browser = push.subscribe();
      const device = await post("/apis/v1/notifications/devices", {
        user_id: String(ids.staff),
        user_type: "STAFF",
        endpoint: browser.endpoint,
        keys: browser.keys,
      });
      expect(device.status).toBe(201);
      const created = await post("/apis/v1/tasks", {
        title: "Call back about the home program",
        description: "She asked whether to keep the bridges at 3x10.",
        patient_id: ids.patient,
        assignee: { type: "staff", id: ids.staff },
        priority: "high",
        due_at: "2031-09-02T17:00:00Z",
      });
      expect(created.status).toBe(200);
      const task = created.body.data;
      expect(task).toMatchObject({
        title: "Call back about the home program",
        status: "open",
        priority: "high",
        due_at: "2031-09-02T17:00:00",
        overdue: false,
        patient_id: ids.patient,
        assignee: { type: "staff", id: ids.staff },
        origin: "person",
        rule: null,
        created_by: { user_id: 101, client_id: null },
        version: 1,
      });
      expect((await get(`/apis/v1/tasks/${task.id}`)).body.data).toEqual(task);

      const received = await until("the push", async () => push.pushesTo(browser)[0]);
      expect(received.problem).toBeNull();
      expect(received.message).toMatchObject({
        title: "Task assigned to you",
        body: "Call back about the home program",
        link: `type=task&task_id=${task.id}`,
      });
      const inbox = await get(`/apis/v1/notifications/inbox?user_type=STAFF&user_id=${ids.staff}`);
      expect(inbox.body.entries).toEqual([
        expect.objectContaining({ title: "Task assigned to you", body: "Call back about the home program" }),
      ]);
      expect(inbox.body.unread_count).toBe(1);

      const comment = await post(`/apis/v1/tasks/${task.id}/comments`, { body: "Left a voicemail." });
      expect(comment.status).toBe(200);
      expect(comment.body.data).toMatchObject({
        task_id: task.id,
        body: "Left a voicemail.",
        author: { user_id: 101 },
      });
      const comments = await get(`/apis/v1/tasks/${task.id}/comments`);
      expect(comments.body.data.comments.map((c: { body: string }) => c.body)).toEqual(["Left a voicemail."]);
      expect(comments.body.data.pagination).toMatchObject({ total_count: 1 });

      expect((await post(`/apis/v1/tasks/${task.id}`, { status: "in_progress" })).body.data.status).toBe("in_progress");
      const done = await post(`/apis/v1/tasks/${task.id}`, { status: "done" });
      expect(done.body.data).toMatchObject({ status: "done", completed_by: { user_id: 101 }, version: 3 });
      expect(done.body.data.completed_at).toEqual(expect.any(String));
      // Closed: only a reopen (or a comment) changes it.
      expect((await post(`/apis/v1/tasks/${task.id}`, { title: "Later" })).body).toMatchObject({
        code: 4071,
        details: { task_id: task.id, current_status: "done" },
      });
      expect((await post(`/apis/v1/tasks/${task.id}`, { status: "cancelled" })).body).toMatchObject({
        code: 4092,
        details: { current_status: "done", allowed_actions: ["reopen"] },
      });
      const reopened = await post(`/apis/v1/tasks/${task.id}`, { status: "open", title: "Call back again" });
      expect(reopened.body.data).toMatchObject({ status: "open", title: "Call back again", completed_at: null });
      expect((await post(`/apis/v1/tasks/${task.id}`, { status: "done", version: 1 })).body).toMatchObject({
        code: 4097,
      });

      const audit = await rt.rawRows(
        "select action from audit_events where resource_type = 'task' and resource_id = ?",
        String(task.id),
      );
      expect(audit.map((a) => a.action)).toEqual(
        expect.arrayContaining(["v1CreateTask", "v1CommentOnTask", "v1UpdateTask"]),
      );

      // The three events, signed (standardwebhooks verifies), identifiers only.
      const got = await receiver.waitFor(
        (all) =>
          ["task.created", "task.updated", "task.completed"].every((type) =>
            all.some((w) => w.json.event_type === type && w.json.data?.task_id === task.id),
          ),
        15_000,
      );
      for (const type of ["task.created", "task.updated", "task.completed"]) {
        const delivery = got.find((w) => w.json.event_type === type && w.json.data?.task_id === task.id);
        const verified = new Webhook(secret).verify(delivery?.body as string, {
          "webhook-id": delivery?.headers["webhook-id"] as string,
          "webhook-timestamp": delivery?.headers["webhook-timestamp"] as string,
          "webhook-signature": delivery?.headers["webhook-signature"] as string,
        });
        expect(verified).toMatchObject({ data: { organisation_id: 1, task_id: task.id } });
        expect(JSON.parse(delivery?.body as string).event_type).toBe(type);
      }
    });

    it("reassigning notifies the new assignee once; assigning yourself notifies nobody", async () => {
      const task = (await post("/apis/v1/tasks", { title: "Fax the plan of care" })).body.data;
      const before = await count("notifications");
      await post(`/apis/v1/tasks/${task.id}`, { assignee: { type: "provider", id: 101 } });
      expect(await count("notifications")).toBe(before);
      await post(`/apis/v1/tasks/${task.id}`, { assignee: { type: "provider", id: 104 } });
      await post(`/apis/v1/tasks/${task.id}`, { assignee: { type: "provider", id: 104 } });
      expect(await count("notifications")).toBe(before + 1);
      const listed = await get("/apis/v1/tasks?assignee=provider:104&status=open");
      expect(listed.body.data.tasks.map((t: { id: number }) => t.id)).toContain(task.id);
    });

    it("of two concurrent completions one wins and the other is refused with the current status, every round", async () => {
      for (let round = 0; round < 20; round++) {
        const task = (await post("/apis/v1/tasks", { title: `Race ${round}` })).body.data;
        const [a, b] = await Promise.all([
          post(`/apis/v1/tasks/${task.id}`, { status: "done" }),
          post(`/apis/v1/tasks/${task.id}`, { status: "done" }),
        ]);
        expect([a.status, b.status].sort()).toEqual([200, 409]);
        const loser = a.status === 409 ? a : b;
        expect(loser.body).toMatchObject({ code: 4092, details: { task_id: task.id, current_status: "done" } });
        const completions = (await rt.rawRows("select data from outbox where event_type = 'task.completed'")).filter(
          (row) => JSON.parse(String(row.data)).task_id === task.id,
        );
        expect(completions).toHaveLength(1);
        expect(Number(await rt.scalar("select version from tasks where id = ?", task.id))).toBe(2);
      }
    });

    it("refuses bad input naming the field, writing nothing", async () => {
      const other = await rt.token({ organisationId: 2 });
      const foreign = (await post("/apis/v1/tasks", { title: "Not yours" }, other)).body.data;
      const appointment = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: ids.other,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + 90 * HOUR,
        end_timestamp: DAY + 90 * HOUR + 1800,
        payment_mode: "SELF_PAY",
      });
      const othersAppointment = appointment.body.data.appointment_id;
      const tables = ["tasks", "outbox", "audit_events", "notifications"];
      const counts = async () => Promise.all(tables.map(count));
      const before = await counts();
      const cases: [unknown, number, string][] = [
        [{ title: "x", assignee: { type: "provider", id: 999 } }, 400, "assignee.id"],
        [{ title: "x", assignee: { type: "staff", id: 99999 } }, 400, "assignee.id"],
        [{ title: "x", patient_id: 987654 }, 400, "patient_id"],
        [
          { title: "x", patient_id: ids.patient, subject: { type: "appointment", id: othersAppointment } },
          400,
          "subject.id",
        ],
        [
          { title: "x", patient_id: ids.patient, subject: { type: "case", id: "SERVICE_CASE_999999" } },
          400,
          "subject.id",
        ],
        [{ title: "x", subject: { type: "appointment", id: othersAppointment } }, 400, "patient_id"],
        [{ title: "x", due_at: "tomorrow" }, 400, "due_at"],
        [{ title: "x", due_at: "2031-02-30T10:00:00Z" }, 400, "due_at"],
        [{ title: "x", priority: "asap" }, 400, "priority"],
        [{ title: "" }, 400, "title"],
        [{ title: "x", status: "done" }, 400, "status"],
      ];
      for (const [body, status, field] of cases) {
        const res = await post("/apis/v1/tasks", body);
        expect({ body, status: res.status }).toEqual({ body, status });
        expect(JSON.stringify(res.body)).toContain(field);
      }
      const task = (await post("/apis/v1/tasks", { title: "Target" })).body.data;
      const mid = await counts();
      for (const [body, field] of [
        [{ status: "finished" }, "status"],
        [{ priority: "whenever" }, "priority"],
        [{ due_at: "2031-13-01T00:00:00" }, "due_at"],
        [{ assignee: { type: "provider", id: 999 } }, "assignee.id"],
      ] as const) {
        const res = await post(`/apis/v1/tasks/${task.id}`, body);
        expect(res.status).toBe(400);
        expect(JSON.stringify(res.body)).toContain(field);
      }
      expect((await post(`/apis/v1/tasks/${task.id}`, { status: "open" })).body).toMatchObject({
        code: 4092,
        details: { current_status: "open" },
      });
      expect((await get(`/apis/v1/tasks/${foreign.id}`)).body.code).toBe(4070);
      expect((await post(`/apis/v1/tasks/${foreign.id}`, { status: "done" })).body.code).toBe(4070);
      expect((await get("/apis/v1/tasks?status=someday")).status).toBe(400);
      expect((await get("/apis/v1/tasks?assignee=nurse:1")).status).toBe(400);
      expect((await get("/apis/v1/tasks?due_before=soon")).status).toBe(400);
      expect(await counts()).toEqual(mid);
      expect(mid.map((n, i) => n - (before[i] as number))).toEqual([1, 1, 1, 0]);
    });

    it("a note waiting for co-signature raises one task for the supervisor, closed when co-signed or returned", async () => {
      await post("/apis/v1/organisation/settings", { require_cosign: true }, admin);
      const contextId = await note();
      const [raised] = await until("the co-sign task", async () => {
        const found = (await systemTasks("soap_cosign")).filter((t) => t.subject.id === contextId);
        return found.length > 0 ? found : undefined;
      });
      expect(raised).toMatchObject({
        status: "open",
        origin: "system",
        rule: "soap_cosign",
        assignee: { type: "provider", id: 103 },
        patient_id: ids.patient,
        subject: { type: "soap_note", id: contextId },
        title: "Co-sign SOAP note",
      });
      // The rule again (a job run twice, the reconcile): still one task.
      await rt.runtime.practice.taskRules.evaluate(1, "soap_cosign", contextId);
      await rt.runtime.practice.taskRules.reconcile(1);
      expect((await systemTasks("soap_cosign")).filter((t) => t.subject.id === contextId)).toHaveLength(1);
      // People may not move its subject.
      expect((await post(`/apis/v1/tasks/${raised!.id}`, { patient_id: ids.other })).status).toBe(400);

      expect((await post(`/apis/v1/soap-context/${contextId}/cosign`, undefined, supervisor)).body.data.status).toBe(
        "INCOMPLETED",
      );
      const closed = await until("the co-signed task closed", async () => {
        const t = (await get(`/apis/v1/tasks/${raised!.id}`)).body.data;
        return t.status === "done" ? t : undefined;
      });
      expect(closed).toMatchObject({ resolution: "cosigned", completed_by: { user_id: null } });
      // Its condition gone, its rule key released: reopening it would leave a task no rule closes.
      expect((await post(`/apis/v1/tasks/${raised!.id}`, { status: "open" })).body).toMatchObject({
        code: 4092,
        details: { current_status: "done", allowed_actions: [] },
      });

      const returnedNote = await note();
      const [second] = await until("the second task", async () => {
        const found = (await systemTasks("soap_cosign")).filter((t) => t.subject.id === returnedNote);
        return found.length > 0 ? found : undefined;
      });
      await post(`/apis/v1/soap-context/${returnedNote}/return`, { reason: "Add strength tests" }, supervisor);
      const withdrawn = await until("the returned note's task withdrawn", async () => {
        const t = (await get(`/apis/v1/tasks/${second!.id}`)).body.data;
        return t.status === "cancelled" ? t : undefined;
      });
      expect(withdrawn.resolution).toBe("returned_for_revision");
      await post("/apis/v1/organisation/settings", { require_cosign: false }, admin);
    });

    it("an authorization running low raises one task, not two, across a restart; more visits resolve it", async () => {
      const c = await post("/apis/soap-enrichment/v1/patientCase", {
        patient_id: ids.other,
        case_title: "Shoulder",
        specialization: "MSK",
        clinic_id: ids.clinic,
        payment_mode: "INSURANCE_PAY",
        therapist_ids: [104],
      });
      expect(c.status).toBe(200);
      const created = await post("/apis/soap-enrichment/v1/authorization", {
        service_case_id: c.body.data.service_case_id,
        reference_number: "AUTH-LOW-1",
        payer_name: "Acme Health",
        effective_start_date: isoDay(-10),
        effective_end_date: isoDay(60),
        authorized_visits: 2,
      });
      expect(created.status).toBe(200);
      const authId = String(created.body.data.authorization_id);
      const [task] = await until("the authorization task", async () => {
        const found = (await systemTasks("authorization_low")).filter((t) => t.subject.id === authId);
        return found.length > 0 ? found : undefined;
      });
      expect(task).toMatchObject({ status: "open", assignee: { type: "provider", id: 104 }, patient_id: ids.other });

      await rt.runtime.practice.taskRules.reconcile(1);
      // A restart: a new process on the same database runs the reconcile again.
      const second = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { shareDatabaseOf: rt },
      );
      try {
        await second.runtime.practice.taskRules.reconcile(1);
        await second.runtime.practice.taskRules.evaluateCase(
          1,
          Number(created.body.data.service_case_id.replace(/\D/g, "")),
        );
      } finally {
        await second.stop();
      }
      expect((await systemTasks("authorization_low")).filter((t) => t.subject.id === authId)).toHaveLength(1);
      expect(
        Number(
          await rt.scalar("select count(*) from notifications where idempotency_key like ?", `task:${task!.id}:%`),
        ),
      ).toBe(1);

      await post(`/apis/soap-enrichment/v1/authorization/${authId}`, { authorized_visits: 20 });
      const resolved = await until("the task resolved", async () => {
        const t = (await get(`/apis/v1/tasks/${task!.id}`)).body.data;
        return t.status === "done" ? t : undefined;
      });
      expect(resolved.resolution).toBe("authorization_extended");
    });

    it("a turned-off rule raises nothing; settings are the administrator's", async () => {
      expect((await post("/apis/v1/task-settings", { rules: { authorization_low: { enabled: false } } })).status).toBe(
        403,
      );
      const off = await post("/apis/v1/task-settings", { rules: { authorization_low: { enabled: false } } }, admin);
      expect(off.body.data.rules).toEqual({
        soap_cosign: { enabled: true },
        authorization_low: { enabled: false },
        document_quarantined: { enabled: true },
        plan_certification: { enabled: true },
      });
      const c = await post("/apis/soap-enrichment/v1/patientCase", {
        patient_id: ids.other,
        case_title: "Knee",
        specialization: "MSK",
        clinic_id: ids.clinic,
        payment_mode: "INSURANCE_PAY",
        therapist_ids: [104],
      });
      const created = await post("/apis/soap-enrichment/v1/authorization", {
        service_case_id: c.body.data.service_case_id,
        reference_number: "AUTH-OFF-1",
        payer_name: "Acme Health",
        effective_start_date: isoDay(-1),
        effective_end_date: isoDay(3),
        authorized_visits: 1,
      });
      const authId = String(created.body.data.authorization_id);
      expect(await rt.runtime.practice.taskRules.evaluate(1, "authorization_low", authId)).toBe("unchanged");
      expect((await systemTasks("authorization_low")).filter((t) => t.subject.id === authId)).toHaveLength(0);
      await post("/apis/v1/task-settings", { rules: { authorization_low: { enabled: true } } }, admin);
      // The authorization's own queued job may run at any moment and raise it first: either way, one task.
      expect(["raised", "unchanged"]).toContain(
        await rt.runtime.practice.taskRules.evaluate(1, "authorization_low", authId),
      );
      expect((await systemTasks("authorization_low")).filter((t) => t.subject.id === authId)).toHaveLength(1);
    });

    it("sends the overdue notice once, across sweeps and a restart, and again only for a new due time", async () => {
      const task = (
        await post("/apis/v1/tasks", {
          title: "Overdue call",
          assignee: { type: "provider", id: 104 },
          due_at: new Date(Date.now() - 60_000).toISOString(),
        })
      ).body.data;
      expect(task.overdue).toBe(true);
      const notices = async () =>
        Number(
          await rt.scalar(
            "select count(*) from notifications where idempotency_key like ?",
            `task:${task.id}:overdue:%`,
          ),
        );
      expect(await rt.runtime.practice.taskRules.sendOverdue()).toBeGreaterThanOrEqual(1);
      await rt.runtime.practice.taskRules.sendOverdue();
      const second = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { shareDatabaseOf: rt });
      try {
        await second.runtime.practice.taskRules.sendOverdue();
      } finally {
        await second.stop();
      }
      expect(await notices()).toBe(1);
      await post(`/apis/v1/tasks/${task.id}`, { due_at: new Date(Date.now() - 30_000).toISOString() });
      await rt.runtime.practice.taskRules.sendOverdue();
      expect(await notices()).toBe(2);
      // Unassigned: no notice owed until someone is given the task, then one.
      const loose = (
        await post("/apis/v1/tasks", { title: "Nobody's", due_at: new Date(Date.now() - 60_000).toISOString() })
      ).body.data;
      const looseNotices = async () =>
        Number(
          await rt.scalar(
            "select count(*) from notifications where idempotency_key like ?",
            `task:${loose.id}:overdue:%`,
          ),
        );
      await rt.runtime.practice.taskRules.sendOverdue();
      expect(await looseNotices()).toBe(0);
      await post(`/apis/v1/tasks/${loose.id}`, { assignee: { type: "provider", id: 104 } });
      await rt.runtime.practice.taskRules.sendOverdue();
      expect(await looseNotices()).toBe(1);
      // Done: no notice owed.
      await post(`/apis/v1/tasks/${task.id}`, { status: "done" });
      await post(`/apis/v1/tasks/${task.id}`, { status: "open" });
      await rt.runtime.practice.taskRules.sendOverdue();
      expect(await notices()).toBe(2);
    });

    it("a token restricted to another clinic neither lists nor reads a task about a record of this clinic", async () => {
      const r = rt.runtime.practice.storage.repositories;
      const elsewhere = (await r.organisations.ensureClinic({ organisationId: 1, name: "Elsewhere", timeZone: "UTC" }))
        .id;
      const restricted = await rt.token({ clinicIds: [elsewhere] });
      const appointment = await post("/apis/v1/appointment", {
        doctor_id: 101,
        patient_id: ids.patient,
        clinic_id: ids.clinic,
        appointment_category: [ids.category],
        timestamp: DAY + 120 * HOUR,
        end_timestamp: DAY + 120 * HOUR + 1800,
        payment_mode: "SELF_PAY",
      });
      const appointmentId = appointment.body.data.appointment_id;
      const atClinic = (
        await post("/apis/v1/tasks", {
          title: "Confirm the visit",
          patient_id: ids.patient,
          subject: { type: "appointment", id: appointmentId },
        })
      ).body.data;
      expect(atClinic.clinic_id).toBe(ids.clinic);
      const general = (await post("/apis/v1/tasks", { title: "Order supplies" })).body.data;
      expect((await get(`/apis/v1/tasks/${atClinic.id}`, restricted)).body.code).toBe(4070);
      expect((await get(`/apis/v1/tasks/${general.id}`, restricted)).status).toBe(200);
      const listed = (await get("/apis/v1/tasks?size=100&status=open", restricted)).body.data.tasks.map(
        (t: { id: number }) => t.id,
      );
      expect(listed).toContain(general.id);
      expect(listed).not.toContain(atClinic.id);
      // Naming this clinic's record answers as an unknown subject.
      const refused = await post(
        "/apis/v1/tasks",
        { title: "x", patient_id: ids.patient, subject: { type: "appointment", id: appointmentId } },
        restricted,
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain("subject.id");
      // Nor may it move a clinic's task to the whole organisation.
      const mine = (
        await post("/apis/v1/tasks", {
          title: "Here",
          patient_id: ids.patient,
          subject: { type: "appointment", id: appointmentId },
        })
      ).body.data;
      const widened = await post(
        `/apis/v1/tasks/${mine.id}`,
        { subject: null },
        await rt.token({ clinicIds: [ids.clinic] }),
      );
      expect(widened.status).toBe(400);
      expect(JSON.stringify(widened.body)).toContain("subject");
      expect((await get(`/apis/v1/tasks/${mine.id}`)).body.data.clinic_id).toBe(ids.clinic);
    });

    it("lists by assignee, status, priority, due window and patient, sorted as asked", async () => {
      const make = (title: string, extra: Record<string, unknown>) =>
        post("/apis/v1/tasks", { title, patient_id: ids.other, ...extra }).then((r) => r.body.data.id as number);
      const late = await make("Late", { priority: "low", due_at: "2040-01-03T00:00:00Z" });
      const early = await make("Early", { priority: "urgent", due_at: "2040-01-01T00:00:00Z" });
      const none = await make("Whenever", { priority: "normal" });
      const mine = (q: string) =>
        get(`/apis/v1/tasks?patient_id=${ids.other}&origin=person&${q}`).then((r) =>
          r.body.data.tasks.map((t: { id: number }) => t.id).filter((id: number) => [late, early, none].includes(id)),
        );
      expect(await mine("sort=due_at")).toEqual([early, late, none]);
      expect(await mine("sort=-due_at")).toEqual([none, late, early]);
      expect(await mine("sort=priority")).toEqual([early, none, late]);
      expect(await mine("due_after=2040-01-02T00:00:00Z")).toEqual([late]);
      expect(await mine("due_before=2040-01-02T00:00:00Z")).toEqual([early]);
      expect(await mine("priority=urgent,low&sort=-priority")).toEqual([late, early]);
      expect(await mine("assignee=none&status=open")).toEqual([early, late, none]);
      const page = await get(`/apis/v1/tasks?patient_id=${ids.other}&origin=person&size=1&page=2`);
      expect(page.body.data.pagination).toMatchObject({ page: 2, size: 1, has_next: true });
    });
  });
}
