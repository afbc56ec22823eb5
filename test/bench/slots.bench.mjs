// Bookable slots at a clinic's scale (docs/performance.md, docs/scheduling.md): GET /v2/slots on the real runtime
// over a SQLite database holding 20 providers with 12 months of working hours (one version replaced midway), a
// daily lunch block each, and 50,000 appointments. One request at a time over keep-alive, so the figures are the
// request's own cost; the baseline is GET /v2/providers/{id} (an authenticated read of one row) on the same server.
//
//   node test/bench/slots.bench.mjs
//
// Env: BENCH_PROVIDERS (20), BENCH_APPOINTMENTS (50000), BENCH_SAMPLES (300). Exits 1 when a request failed or a
// slot overlaps an appointment.
import { DateTime } from "luxon";
import { signAccessToken } from "@openpractice/runtime";
import { busyShare, intEnv, machineLine, SECRET, startRuntime, stats, stopServer, temp } from "./harness.mjs";
import { join } from "node:path";
import { buildSlotsFixture, ZONE } from "./slots-fixture.mjs";

const PROVIDERS = intEnv("BENCH_PROVIDERS", 20);
const APPOINTMENTS = intEnv("BENCH_APPOINTMENTS", 50_000);
const SAMPLES = intEnv("BENCH_SAMPLES", 300);
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

async function timed(url, headers, samples, pathOf, check) {
  const ms = [];
  for (let i = 0; i < samples; i++) {
    const path = pathOf(i);
    const started = performance.now();
    const res = await fetch(`${url}${path}`, { headers });
    const body = await res.json();
    ms.push(performance.now() - started);
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    check?.(body);
  }
  return stats(ms);
}

async function main() {
  console.log(machineLine());
  console.log(`CPU busy before the run: ${(100 * (await busyShare())).toFixed(0)}%`);
  const file = join(temp, "slots.db");
  const t0 = performance.now();
  const fixture = await buildSlotsFixture(file, { providers: PROVIDERS, appointments: APPOINTMENTS });
  console.log(
    `fixture: ${PROVIDERS} providers, 12 months of hours, ${APPOINTMENTS} appointments, built in ${f1((performance.now() - t0) / 1000)} s`,
  );
  const server = await startRuntime("runtime", file, "warn");
  try {
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
    const headers = { authorization: `Bearer ${token}` };
    const ids = fixture.providerIds;
    // Days of the fixture's busy months: appointments fill the mornings, so slots are the afternoons.
    const dates = Array.from({ length: 20 }, (_, i) => fixture.start.plus({ weeks: 4 + i * 2 }).toISODate());
    let slotsSeen = 0;
    // Appointments fill 08:00-12:00 and lunch blocks 12:00-13:00 on weekdays: no slot may start in 08:00-13:00.
    const checkOne = (body) => {
      for (const p of body.data) {
        slotsSeen += p.slots.length;
        for (const s of p.slots) {
          const local = DateTime.fromISO(s, { setZone: true });
          const minute = local.hour * 60 + local.minute;
          if (minute >= 480 && minute < 780) throw new Error(`slot ${s} lies in booked or blocked time`);
        }
      }
    };
    // Warm-up, then each measure.
    await timed(server.url, headers, 30, (i) => `/v2/providers/${ids[i % ids.length]}`);
    const baseline = await timed(server.url, headers, SAMPLES, (i) => `/v2/providers/${ids[i % ids.length]}`);
    const one = await timed(
      server.url,
      headers,
      SAMPLES,
      (i) =>
        `/v2/slots?provider_id=${ids[i % ids.length]}&clinic_id=${fixture.clinicId}&slot_length=30&start_date=${dates[i % dates.length]}&days=14`,
      checkOne,
    );
    const all = await timed(
      server.url,
      headers,
      Math.ceil(SAMPLES / 3),
      (i) =>
        `/v2/slots?provider_id=${ids.join(",")}&clinic_id=${fixture.clinicId}&slot_length=30&start_date=${dates[i % dates.length]}&days=7`,
      checkOne,
    );
    if (slotsSeen === 0) throw new Error("no slot was offered: the fixture is wrong");
    console.log(`baseline GET /v2/providers/{id}: p50 ${f2(baseline.p50)} ms, p95 ${f2(baseline.p95)} ms`);
    console.log(
      `slots, 1 provider x 14 days: p50 ${f2(one.p50)} ms, p95 ${f2(one.p95)} ms (goal < 10), ${f1(one.p95 / baseline.p95)}x the baseline p95`,
    );
    console.log(
      `slots, ${PROVIDERS} providers x 7 days: p50 ${f2(all.p50)} ms, p95 ${f2(all.p95)} ms (goal < 40), ${f1(all.p95 / baseline.p95)}x the baseline p95`,
    );
  } finally {
    await stopServer(server);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
