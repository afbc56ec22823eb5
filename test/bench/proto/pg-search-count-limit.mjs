// Prototype measurement: GET /v2/patients?search=… over HTTP on the real runtime, one request at a time with
// the benchmark's terms rotating, for the default search count limit (1,000) and for 100, alternating twice.
// It only sets OPENPRACTICE_SEARCH_COUNT_LIMIT; no code differs. See docs/performance.md.
//
//   FX=<a kept 1,000,000-patient fixture URL> node test/bench/proto/pg-search-count-limit.mjs
//   (BENCH_KEEP=1 node test/bench/pg-search-plan.mjs keeps one and prints its URL)
import { signAccessToken } from "@openpractice/runtime";
import { BENCH_ORGANISATION_ID } from "../fixture.mjs";
import * as h from "../harness.mjs";

if (!process.env.FX) throw new Error("FX: set it to the URL of a kept PostgreSQL fixture database");
const token = await signAccessToken(h.SECRET, {
  organisationId: BENCH_ORGANISATION_ID,
  userId: 101,
  scope: "read write",
});
const headers = { authorization: `Bearer ${token}` };
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1];
for (const limit of ["1000", "100", "1000", "100"]) {
  process.env.OPENPRACTICE_SEARCH_COUNT_LIMIT = limit;
  const s = await h.startRuntime(`ours-${limit}`, process.env.FX, "warn");
  for (let i = 0; i < 60; i++) await (await fetch(s.url + h.searchPath(i), { headers })).arrayBuffer();
  const all = [];
  const by = {};
  for (let i = 0; i < 600; i++) {
    const t = performance.now();
    const r = await fetch(s.url + h.searchPath(i), { headers });
    await r.arrayBuffer();
    if (!r.ok) throw new Error(`search answered ${r.status}`);
    const ms = performance.now() - t;
    all.push(ms);
    (by[h.SEARCH_TERMS[i % h.SEARCH_TERMS.length]] ??= []).push(ms);
  }
  const f = (xs) => `${pct(xs, 50).toFixed(1)}/${pct(xs, 95).toFixed(1)}`;
  console.log(
    `count limit ${limit}: all ${f(all)} | ${Object.entries(by)
      .map(([t, xs]) => `${t} ${f(xs)}`)
      .join(", ")}`,
  );
  await h.stopServer(s);
}
process.exit(0);
