// The embedding of docs/embedding.md from the packed tarballs, in a project outside the repository, as a vendor
// does it: installed with the page's SQLite install line and the adapter kit's line of docs/adapters.md, the EMR of
// scratch-emr/emr.ts type-checked as an ES module and as CommonJS (and the typed client under module node16), run
// and driven over HTTP (a POST behind express.json(), a webhook to an http:// receiver on loopback, a shutdown while
// a request's body is still arriving), and the kit's conformance suites run with vitest's default settings.
// test/packaging/pack-install.mjs calls it after packing; it returns the problems it found.
import { randomBytes } from "node:crypto";
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { SignJWT } from "jose";
import { openPracticeInstalls } from "../docs/doc-examples.ts";
import { must, run, say } from "./commands.mjs";

const here = new URL(".", import.meta.url);
const fixture = (name) => new URL(`scratch-emr/${name}`, here);

/** The install lines of the block of `page` that names `word`, in order. */
function installBlock(root, page, word) {
  const installs = openPracticeInstalls(readFileSync(join(root, page), "utf8"));
  const found = installs.find((i) => i.args.includes(word));
  if (!found) throw new Error(`${page} has no npm install line naming ${word}`);
  return installs.filter((i) => i.line === found.line).map((i) => i.args);
}

const writeJson = (path, value) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Sets up the project: the docs' install lines (tarballs for @openpractice names), the EMR and its tsconfigs. */
function installProject({ root, project, withTarballs }) {
  mkdirSync(join(project, "cjs"), { recursive: true });
  writeJson(join(project, "package.json"), { name: "scratch-emr", private: true, type: "module" });
  const npm = (args) =>
    must(
      `npm install ${args.join(" ")}`,
      run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", ...args], {
        cwd: project,
        timeout: 300_000,
      }),
    );
  const lines = [
    ...installBlock(root, "docs/embedding.md", "@openpractice/sqlite"),
    ...installBlock(root, "docs/adapters.md", "@openpractice/testing"),
    ...installBlock(root, "docs/client.md", "@openpractice/client"), // it checks the webhooks it receives
  ];
  const installs = lines.map((args) => npm(withTarballs(args)));
  // The vendor's own tools: the compiler and the types of what the EMR's code imports itself.
  installs.push(npm(["--save-dev", "typescript@~5.9.3", "@types/node@^22", "@types/express@^5"]));
  say(
    `scratch EMR: installed the lines of embedding.md (SQLite), adapters.md and client.md from the tarballs (${installs
      .map((r) => r.seconds.toFixed(0))
      .join(" + ")} s)`,
  );
  copyFileSync(fixture("emr.ts"), join(project, "emr.ts"));
  copyFileSync(fixture("emr.ts"), join(project, "cjs", "emr.ts"));
  copyFileSync(fixture("client.ts"), join(project, "client.ts"));
  copyFileSync(fixture("client.ts"), join(project, "cjs", "client.ts"));
  copyFileSync(new URL("../../examples/custom-storage/memory-storage.test.ts", here), join(project, "kit.test.ts"));
  writeJson(join(project, "cjs", "package.json"), { type: "commonjs" });
  const compilerOptions = { target: "es2023", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] };
  writeJson(join(project, "tsconfig.json"), {
    compilerOptions: { ...compilerOptions, module: "nodenext" },
    files: ["emr.ts", "client.ts", "kit.test.ts"],
  });
  writeJson(join(project, "cjs", "tsconfig.json"), {
    compilerOptions: { ...compilerOptions, module: "nodenext" },
    files: ["emr.ts", "client.ts"],
  });
  writeJson(join(project, "cjs", "tsconfig.node16.json"), {
    compilerOptions: { ...compilerOptions, module: "node16" },
    files: ["client.ts"],
  });
}

/** tsc over each configuration: the EMR as ESM and as CommonJS (nodenext), the client as CommonJS under node16. */
function typeCheck(project, problems) {
  const tsc = join(project, "node_modules/typescript/bin/tsc");
  const failed = [];
  for (const config of ["tsconfig.json", "cjs/tsconfig.json", "cjs/tsconfig.node16.json"]) {
    const r = run(process.execPath, [tsc, "-p", config], { cwd: project });
    if (r.status !== 0) failed.push(`scratch EMR: tsc -p ${config}:\n${r.stdout}${r.stderr}`);
  }
  problems.push(...failed);
  say(
    failed.length > 0
      ? `scratch EMR: ${failed.length} of 3 type-checks failed`
      : "scratch EMR: the EMR and the client type-checked as ES modules and as CommonJS (nodenext; the client under node16 too)",
  );
}

/** Polls `read` every 50 ms until it gives a value (background work), at most `ms`. */
async function until(what, read, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A webhook receiver on 127.0.0.1 over plain http: every delivery's headers and body, answered 200. */
async function startReceiver() {
  const deliveries = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.end("ok");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, deliveries, close: () => server.close() };
}

/** The EMR as a process, with its stdout events (one JSON line each) and stderr kept. */
function startEmr(project, env) {
  const child = spawn(process.execPath, ["emr.ts"], { cwd: project, env: { ...process.env, ...env } });
  const events = [];
  let stderr = "";
  let pending = "";
  child.stdout.on("data", (chunk) => {
    pending += chunk;
    for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      try {
        events.push(JSON.parse(line));
      } catch {
        events.push({ text: line });
      }
    }
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const printed = (what, test) =>
    until(`the EMR printing ${what} (it printed ${JSON.stringify(events)}; stderr: ${stderr})`, () => test(events));
  return { child, events, printed, exited, stderr: () => stderr };
}

/** One request with a JSON body; its status and parsed reply. */
async function call(url, token, method, body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Drives the running EMR; pushes what went wrong. */
async function drive(project, problems) {
  const secret = randomBytes(32).toString("hex");
  const receiver = await startReceiver();
  const emr = startEmr(project, {
    EMR_DATABASE: join(project, `emr-${randomBytes(4).toString("hex")}.sqlite`),
    EMR_WEBHOOK_KEY: randomBytes(32).toString("hex"),
    EMR_JWT_SECRET: secret,
  });
  try {
    const { url } = await emr.printed("its URL", (events) => events.find((e) => e.url));
    const token = await new SignJWT({ organisation_id: 1, user_id: 101, scope: "read write" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("101")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(new TextEncoder().encode(secret));
    const patient = { first_name: "Ada", last_name: "Byron", date_of_birth: "1985-04-12" };

    // 1. A POST behind app.use(express.json()).
    const first = await call(`${url}/v2/patients`, token, "POST", patient);
    if (first.status !== 201)
      problems.push(`scratch EMR: POST /v2/patients after express.json(): ${JSON.stringify(first)}`);

    // 2. A webhook to an http:// receiver on loopback, signed.
    const subscribed = await call(`${url}/apis/v1/webhooks/subscriptions`, token, "POST", {
      name: "local receiver",
      event_types: ["patient.created"],
      notification_url: receiver.url,
    });
    if (subscribed.status !== 201) problems.push(`scratch EMR: webhook subscription: ${JSON.stringify(subscribed)}`);
    const second = await call(`${url}/v2/patients`, token, "POST", { ...patient, first_name: "Grace" });
    const delivery = await until("a delivery of patient.created at the receiver", () =>
      receiver.deliveries.find((d) => String(JSON.parse(d.body).data?.patient_id) === String(second.body?.id)),
    );
    const client = await import(pathToFileURL(join(project, "node_modules/@openpractice/client/dist/index.js")).href);
    const verified = await client.verifyWebhook({
      body: delivery.body,
      headers: delivery.headers,
      signatureKey: subscribed.body.signature_key,
    });
    if (!verified.ok) problems.push(`scratch EMR: the delivery's signature: ${JSON.stringify(verified)}`);
    say("scratch EMR: POST after express.json() 201; webhook delivered to http://127.0.0.1 and its signature checked");

    // 3. SIGTERM while a request's body is still arriving: it must still succeed, and nothing new is accepted.
    const body = JSON.stringify({ ...patient, first_name: "Mid", last_name: "Upload" });
    const posts = () => emr.events.filter((e) => e.request === "POST /emr/v2/patients").length;
    const before = posts();
    const upload = request(`${url}/v2/patients`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
      },
    });
    const answered = new Promise((resolve, reject) => {
      upload.on("response", (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode, body: text }));
      });
      upload.on("error", reject);
    }).catch((error) => ({ status: "no answer", body: String(error) })); // settled here: awaited after the SIGTERM
    upload.write(body.slice(0, body.length / 2));
    await emr.printed("the upload's request line", () => posts() > before);
    emr.child.kill("SIGTERM");
    await emr.printed("the start of its shutdown", (events) => events.find((e) => e.shutdown === "started"));
    const refused = await fetch(`${url}/healthz`).then(
      (res) => `answered ${res.status}`,
      (error) => error.cause?.code ?? String(error),
    );
    if (refused !== "ECONNREFUSED")
      problems.push(`scratch EMR: a new connection after SIGTERM was not refused (${refused})`);
    upload.end(body.slice(body.length / 2));
    const reply = await answered;
    if (reply.status !== 201)
      problems.push(`scratch EMR: the upload under way at SIGTERM answered ${reply.status}: ${reply.body}`);
    const exit = await Promise.race([
      emr.exited,
      new Promise((resolve) => setTimeout(() => resolve({ code: "still running after 30 s" }), 30_000).unref()),
    ]);
    const stopped = emr.events.filter((e) => e.stopped).map((e) => e.stopped);
    if (exit.code !== 0 || stopped.join(", ") !== "server, background work, storage")
      problems.push(
        `scratch EMR: the shutdown: exit ${JSON.stringify(exit)}, stopped in order [${stopped.join(", ")}]`,
      );
    if (emr.stderr().trim() !== "") problems.push(`scratch EMR: printed on stderr:\n${emr.stderr()}`);
    say(
      `scratch EMR: SIGTERM during an upload: ${reply.status}, new connections refused, stopped ${stopped.join(", ")}`,
    );
  } finally {
    emr.child.kill("SIGKILL");
    receiver.close();
  }
}

/** The adapter kit's suites from the tarball, on its in-memory store, with vitest's default settings (no config). */
function runKit(project, problems) {
  const r = run(process.execPath, [join(project, "node_modules/vitest/vitest.mjs"), "run"], {
    cwd: project,
    env: { ...process.env, CI: "true" },
  });
  const summary = /Tests\s+(.*)/.exec(stripVTControlCharacters(r.stdout))?.[1]?.trim() ?? "no summary";
  if (r.status !== 0)
    problems.push(`scratch EMR: the kit under vitest's defaults:\n${r.stdout.slice(-4000)}${r.stderr}`);
  say(`scratch EMR: the adapter kit under vitest's default settings: ${summary} (${r.seconds.toFixed(0)} s)`);
}

export async function checkScratchEmr({ root, temp, withTarballs }) {
  const problems = [];
  const project = join(temp, "emr");
  installProject({ root, project, withTarballs });
  typeCheck(project, problems);
  await drive(project, problems);
  runKit(project, problems);
  return problems;
}
