// Where a search request's time goes, layer by layer, in one process over a
// 100,000-patient SQLite fixture: the repository, the service, the rate limiter,
// the whole handler, then the handler behind the h3 host and behind bare
// node:http. It found that returning a streamed web Response through h3 cost
// about 6 ms per request (see docs/performance.md).
//   npm run build && node test/bench/profile-search.mjs
import { buildFixture } from "./fixture.mjs";
import { createSqliteStorage } from "@openpractice/sqlite";
import { createPractice, toPatientListCriteria } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { mkdtempSync, rmSync } from "node:fs";
const dir = mkdtempSync("/tmp/prof-");
const file = dir + "/p.db";
await buildFixture(file, 100000);
const storage = await createSqliteStorage({ filename: file });
const practice = createPractice({ storage, planLimits: { enterprise: 1e9 } });
const secret = "x".repeat(40);
const handler = createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret }) });
const token = await signAccessToken(secret, { organisationId: 1, userId: 1, scope: "read write" });
const principal = { organisationId: 1, userId: 1, name: null, scopes: ["read"], clinicIds: [], roles: [] };
const terms = ["kowal", "priya", "muller", "renee"];
async function time(label, fn, n = 200) {
  for (let i = 0; i < 20; i++) await fn(i);
  const t = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn(i);
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(label.padEnd(30), "p50", t[n >> 1].toFixed(2), "p95", t[Math.floor(n * 0.95)].toFixed(2));
}
await time("repo.list", (i) => storage.repositories.patients.list(toPatientListCriteria(1, { search: terms[i % 4] })));
await time("service.list", (i) => practice.patients.list(principal, { search: terms[i % 4] }));
await time("rateLimiter.consume", () => practice.rateLimiter.consume(1, "v2"));
await time("handler (in process)", async (i) => {
  const r = await handler(
    new Request("http://x/v2/patients?search=" + terms[i % 4], { headers: { authorization: "Bearer " + token } }),
  );
  await r.text();
});
import { createH3NodeServer } from "@openpractice/h3";
import { createServer } from "node:http";
const h3server = createH3NodeServer(handler);
await new Promise((r) => h3server.listen(0, "127.0.0.1", r));
const h3url = `http://127.0.0.1:${h3server.address().port}`;
await time("h3 host over HTTP", async (i) => {
  const r = await fetch(h3url + "/v2/patients?search=" + terms[i % 4], {
    headers: { authorization: "Bearer " + token },
  });
  await r.text();
});
// Same handler on bare node:http, converting by hand.
const bare = createServer(async (req, res) => {
  const r = await handler(new Request("http://x" + req.url, { headers: req.headers }));
  res.writeHead(r.status, Object.fromEntries(r.headers));
  res.end(Buffer.from(await r.arrayBuffer()));
});
await new Promise((r) => bare.listen(0, "127.0.0.1", r));
const bareUrl = `http://127.0.0.1:${bare.address().port}`;
await time("bare node:http over HTTP", async (i) => {
  const r = await fetch(bareUrl + "/v2/patients?search=" + terms[i % 4], {
    headers: { authorization: "Bearer " + token },
  });
  await r.text();
});
h3server.close();
bare.close();
await storage.close();
rmSync(dir, { recursive: true, force: true });
