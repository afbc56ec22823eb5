import { WEBHOOK_DELIVERY_QUEUE } from "@openpractice/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

/** The samples of a Prometheus text exposition (format 0.0.4), read line by line: name, labels, value. */
function samples(text: string) {
  const out: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels = Object.fromEntries(
      [...(m[2] ?? "").matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
    );
    out.push({ name: m[1] as string, labels: labels as Record<string, string>, value: Number(m[3]) });
  }
  return out;
}

// GET /metrics (OPENPRACTICE_METRICS_PORT) on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] metrics`, () => {
    let rt: TestRuntime;
    let receiver: WebhookReceiver;
    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      rt = await startTestRuntime(
        {
          OPENPRACTICE_METRICS_PORT: "0",
          OPENPRACTICE_WORKER_POLL_MS: "50",
          OPENPRACTICE_PLAN_LIMITS: '{"free":100000}',
        },
        { engine },
      );
    });
    afterAll(async () => {
      await rt.stop();
      await receiver.stop();
    });
    const scrape = async () => {
      const res = await fetch(rt.runtime.metricsUrl as string);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return samples(await res.text());
    };
    const value = (all: ReturnType<typeof samples>, name: string, labels: Record<string, string> = {}) =>
      all
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);

    it("counts requests by route pattern and status, with durations, on a port of its own", async () => {
      expect(rt.runtime.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect((await rt.call("GET", "/metrics")).status).toBe(404);
      for (let i = 0; i < 3; i++) expect((await rt.call("GET", "/v2/patients")).status).toBe(200);
      expect((await rt.call("GET", "/v2/patients/999999")).status).toBe(404);
      const all = await scrape();
      expect(
        value(all, "openpractice_http_requests_total", { method: "GET", route: "/v2/patients", status: "200" }),
      ).toBe(3);
      expect(value(all, "openpractice_http_requests_total", { route: "/v2/patients/:id", status: "404" })).toBe(1);
      expect(
        value(all, "openpractice_http_request_duration_seconds_count", { method: "GET", route: "/v2/patients" }),
      ).toBe(3);
      expect(
        value(all, "openpractice_http_request_duration_seconds_bucket", { route: "/v2/patients", le: "+Inf" }),
      ).toBe(3);
      expect(all.some((s) => s.name === "openpractice_process_cpu_user_seconds_total")).toBe(true);
    });

    it("counts webhook attempts and finished jobs, and shows each queue's backlog", async () => {
      const sub = await rt.call("POST", "/apis/v1/webhooks/subscriptions", {
        body: { name: "Metrics", event_types: ["patient.created"], notification_url: `${receiver.url}/m` },
      });
      expect(sub.status).toBe(201);
      await rt.call("POST", "/v2/patients", {
        body: { first_name: "Ada", last_name: "Metric", date_of_birth: "1980-01-01" },
      });
      await receiver.waitFor((r) => r.some((x) => x.path === "/m"));
      // The counters move once the attempt is recorded, just after the receiver answered, and the job's once the
      // runner has recorded its end, after that: both polled.
      const delivery = async () => {
        const all = await scrape();
        return {
          attempts: value(all, "openpractice_webhook_attempts_total", { outcome: "delivered" }),
          jobs: value(all, "openpractice_jobs_finished_total", { queue: WEBHOOK_DELIVERY_QUEUE, outcome: "completed" }),
        };
      };
      await expect.poll(delivery).toEqual({ attempts: 1, jobs: 1 });
      // A job scheduled for later is backlog in the "scheduled" state; due jobs are taken at once.
      await rt.runtime.practice.storage.repositories.jobs.enqueue({
        queue: "system.noop",
        payload: null,
        runAt: new Date(Date.now() + 3600_000),
      });
      const all = await scrape();
      expect(value(all, "openpractice_jobs", { queue: "system.noop", state: "scheduled" })).toBe(1);
      expect(
        all.filter((s) => s.name === "openpractice_jobs" && s.labels.queue === WEBHOOK_DELIVERY_QUEUE),
      ).toHaveLength(3);
      expect(value(all, "openpractice_job_oldest_due_seconds", { queue: WEBHOOK_DELIVERY_QUEUE })).toBe(0);
    });

    it("shows the database pool on the server engines, and none on SQLite", async () => {
      const pool = (await scrape()).filter((s) => s.name === "openpractice_db_pool_connections");
      if (engine === "sqlite") expect(pool).toEqual([]);
      else {
        const state = Object.fromEntries(pool.map((s) => [s.labels.state, s.value]));
        expect(state.max).toBe(10);
        expect(state.open).toBeGreaterThan(0);
        expect(state.open).toBeLessThanOrEqual(state.max);
        expect(state.idle).toBeLessThanOrEqual(state.open);
        // Callers waiting for a connection: how many depends on the moment (the workers poll meanwhile).
        expect(Number.isInteger(state.waiting) && state.waiting >= 0).toBe(true);
      }
    });
  });
}
