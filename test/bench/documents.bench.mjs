// Patient documents (docs/documents.md, issue 47), three measures, each against what it is compared with in the same
// process tree. See docs/performance.md ("Patient documents").
//
//   npm run bench:documents                       # SQLite
//   DATABASE_URL=postgres://… npm run bench:documents   (or npm run bench:documents:postgres)
//
// 1. Throughput: a 20 MiB file uploaded (multipart, sealed, hashed, type-detected) and downloaded (decrypted) over
//    HTTP through the runtime on the filesystem store, against a bare fs stream copy of the same bytes; and the same
//    work in process (core's intake and reader on the store, no HTTP), to show where the time goes. Medians of
//    BENCH_ROUNDS (5); the ratio is the copy's time over ours (1.0: as fast as the copy).
// 2. Memory: the runtime's RSS (from /proc) while ten 20 MiB uploads run at once, against its RSS before them.
// 3. Listing: 10,000 documents of one patient, every page of 20 read through the service in random order, p95.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createPractice, newDocumentObjectKey } from "@openpractice/core";
import { FileSystemDocumentStore } from "@openpractice/files";
import { openStorage, signAccessToken } from "@openpractice/runtime";
import { testPracticeKeys } from "@openpractice/testing";
import {
  intEnv,
  machineLine,
  median,
  runBenchmark,
  SECRET,
  startRuntime,
  stats,
  stopServer,
  temp,
} from "./harness.mjs";

const MiB = 1024 * 1024;
const SIZE = intEnv("BENCH_DOCUMENT_MIB", 20) * MiB;
const ROUNDS = intEnv("BENCH_ROUNDS", 5);
const CONCURRENT = intEnv("BENCH_CONCURRENT_UPLOADS", 10);
const LISTED = intEnv("BENCH_LISTED_DOCUMENTS", 10_000);
const ms = (n) => `${n.toFixed(1)} ms`;
const rate = (bytes, millis) => `${((bytes / MiB) * (1000 / millis)).toFixed(0)} MiB/s`;

async function timed(fn) {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** A PDF-looking file of SIZE random bytes (the type check reads the %PDF header; the rest does not matter). */
function makeSource() {
  const file = join(temp, "source.pdf");
  const bytes = randomBytes(SIZE);
  Buffer.from("%PDF-1.7\n").copy(bytes, 0);
  writeFileSync(file, bytes);
  return { file, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** POSTs the file as a multipart upload, streamed from disk; resolves with the reply. */
function upload(url, token, patientId, file) {
  const boundary = `bench${randomBytes(8).toString("hex")}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nreferral\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nBench\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file).size + tail.length;
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/apis/v1/patient/${patientId}/documents`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": length,
        },
      },
      (res) => {
        const parts = [];
        res.on("data", (d) => parts.push(d));
        res.on("end", () => {
          const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
          if (res.statusCode !== 200) reject(new Error(`upload answered ${res.statusCode}: ${JSON.stringify(body)}`));
          else resolve(body.data);
        });
      },
    );
    req.on("error", reject);
    req.write(head);
    const stream = createReadStream(file);
    stream.on("end", () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** Downloads a document and hashes it as it arrives. */
async function download(url, token, patientId, id) {
  const res = await fetch(`${url}/apis/v1/patient/${patientId}/documents/${id}/content`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const hash = createHash("sha256");
  for await (const piece of res.body) hash.update(piece);
  return hash.digest("hex");
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;

async function httpMeasures(source) {
  const database = join(temp, "documents.db");
  const server = await startRuntime("runtime", database, "warn", undefined, {
    OPENPRACTICE_DOCUMENTS_DIR: join(temp, "documents"),
  });
  try {
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
    const created = await fetch(`${server.url}/v2/patients`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Bench", last_name: "Documents", date_of_birth: "1960-01-01" }),
    });
    if (created.status !== 201) throw new Error(`patient: ${created.status}`);
    const patientId = (await created.json()).id;
    const copies = [];
    const uploads = [];
    const downloads = [];
    for (let round = 0; round < ROUNDS; round++) {
      const target = join(temp, "copy.pdf");
      copies.push(await timed(() => pipeline(createReadStream(source.file), createWriteStream(target))));
      rmSync(target);
      let doc;
      uploads.push(await timed(async () => (doc = await upload(server.url, token, patientId, source.file))));
      if (doc.sha256 !== source.sha256) throw new Error("upload hash differs");
      let hash;
      downloads.push(await timed(async () => (hash = await download(server.url, token, patientId, doc.id))));
      if (hash !== source.sha256) throw new Error("download differs from the upload");
    }
    const copy = median(copies);
    const up = median(uploads);
    const down = median(downloads);
    console.log(`\n1. ${SIZE / MiB} MiB over HTTP (runtime on SQLite, filesystem store), medians of ${ROUNDS}`);
    console.log(`   bare fs stream copy        ${ms(copy)}  ${rate(SIZE, copy)}`);
    console.log(`   upload (multipart, sealed) ${ms(up)}  ${rate(SIZE, up)}  ratio ${(copy / up).toFixed(2)}`);
    console.log(`   download (decrypted)       ${ms(down)}  ${rate(SIZE, down)}  ratio ${(copy / down).toFixed(2)}`);

    // 2. Memory: ten uploads at once, twice. The first burst also grows V8's young generation (the allocation rate
    // of ten streams at once), which stays; the second shows what the uploads themselves hold.
    const burst = async () => {
      await new Promise((r) => setTimeout(r, 500));
      const before = rssOf(server.child.pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(server.child.pid));
      }, 10);
      const started = performance.now();
      const docs = await Promise.all(
        Array.from({ length: CONCURRENT }, () => upload(server.url, token, patientId, source.file)),
      );
      const wall = performance.now() - started;
      clearInterval(sampler);
      if (docs.some((d) => d.sha256 !== source.sha256)) throw new Error("a concurrent upload's hash differs");
      return { before, peak, wall };
    };
    console.log(
      `\n2. ${CONCURRENT} uploads of ${SIZE / MiB} MiB at once (runtime RSS from /proc, sampled every 10 ms)`,
    );
    for (const label of ["first burst ", "second burst"]) {
      const b = await burst();
      console.log(
        `   ${label}: ${ms(b.wall)} in all; RSS before ${(b.before / MiB).toFixed(1)} MiB, peak ${(b.peak / MiB).toFixed(1)} MiB: grew ${((b.peak - b.before) / MiB).toFixed(1)} MiB`,
      );
    }
  } finally {
    await stopServer(server);
  }
}

/** The same upload and download in process: core's intake and reader on the filesystem store, no HTTP. */
async function inProcess(source, practice, store) {
  const times = { copy: [], seal: [], open: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const target = join(temp, "copy-in.pdf");
    times.copy.push(await timed(() => pipeline(createReadStream(source.file), createWriteStream(target))));
    rmSync(target);
    let doc;
    times.seal.push(
      await timed(async () => {
        doc = await practice.patientDocuments.upload(PRINCIPAL, PATIENT.id, {
          content: createReadStream(source.file, { highWaterMark: 64 * 1024 }),
          fileName: "bench.pdf",
          declaredType: "application/pdf",
          metadata: async () => ({ category: "referral", title: "Bench" }),
        });
      }),
    );
    times.open.push(
      await timed(async () => {
        const found = await practice.patientDocuments.content(PRINCIPAL, PATIENT.id, doc.id);
        const hash = createHash("sha256");
        for await (const piece of await found.read()) hash.update(piece);
        if (hash.digest("hex") !== source.sha256) throw new Error("in-process read differs");
      }),
    );
  }
  const copy = median(times.copy);
  console.log(`\n1b. the same in process (core's intake and reader, ${store.kind} store), medians of ${ROUNDS}`);
  console.log(`   bare fs stream copy        ${ms(copy)}  ${rate(SIZE, copy)}`);
  console.log(
    `   upload (sealed)            ${ms(median(times.seal))}  ratio ${(copy / median(times.seal)).toFixed(2)}`,
  );
  console.log(
    `   read (decrypted)           ${ms(median(times.open))}  ratio ${(copy / median(times.open)).toFixed(2)}`,
  );
}

/** The patient the in-process measures file under (registered in main). */
const PATIENT = { id: 0 };
const PRINCIPAL = {
  organisationId: 1,
  userId: 101,
  name: "Bench",
  scopes: ["read", "write"],
  clinicIds: [],
  roles: [],
};

/** 10,000 documents of one patient, inserted through the repository, then every page read in random order. */
async function listing(practice, label) {
  const now = Date.now();
  const rows = [];
  for (let i = 0; i < LISTED; i++) {
    const key = newDocumentObjectKey();
    rows.push({
      organisationId: 1,
      patientId: PATIENT.id,
      category: i % 3 === 0 ? "referral" : "outside_record",
      title: `Document ${i}`,
      description: null,
      documentDate: null,
      caseId: null,
      appointmentId: null,
      clinicId: null,
      source: "upload",
      soapContextId: null,
      fileName: `d${i}.pdf`,
      mediaType: "application/pdf",
      sizeBytes: 1000 + i,
      sha256: "0".repeat(64),
      storageKey: key,
      wrappedKey: "x",
      status: "available",
      scanResult: "clean",
      scanSignature: null,
      scannedAt: null,
      uploadedByUserId: 101,
      uploadedByClientId: null,
      createdAt: new Date(now - i * 1000),
      updatedAt: new Date(now - i * 1000),
      deletedAt: null,
      purgeAfter: null,
    });
  }
  for (let i = 0; i < rows.length; i += 500)
    await practice.storage.transaction(async (tx) => {
      for (const row of rows.slice(i, i + 500)) await tx.patientDocuments.insert(row);
    });
  const pages = Math.ceil(
    (await practice.patientDocuments.list(PRINCIPAL, PATIENT.id, { page: 1, size: 20 })).total / 20,
  );
  const order = Array.from({ length: pages }, (_, i) => i + 1).sort(() => Math.random() - 0.5);
  for (const page of order.slice(0, 20))
    await practice.patientDocuments.list(PRINCIPAL, PATIENT.id, { page, size: 20 });
  const samples = [];
  for (const page of order) {
    const started = performance.now();
    const found = await practice.patientDocuments.list(PRINCIPAL, PATIENT.id, { page, size: 20 });
    samples.push(performance.now() - started);
    if (found.documents.length === 0) throw new Error(`page ${page} is empty`);
  }
  const s = stats(samples);
  console.log(
    `\n3. listing ${LISTED} documents of one patient on ${label}: ${pages} pages of 20 in random order, p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, p99 ${ms(s.p99)}`,
  );
}

async function main() {
  console.log(machineLine());
  const source = makeSource();
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(temp, "in-process.db")}`;
  if (!process.env.DATABASE_URL) await httpMeasures(source);
  const storage = await openStorage(databaseUrl);
  const store = new FileSystemDocumentStore({ directory: join(temp, "in-process-documents") });
  const practice = createPractice({ storage, keys: testPracticeKeys(), documentStore: store });
  const registered = await practice.patients.register(PRINCIPAL, {
    firstName: "Bench",
    lastName: "Documents",
    dateOfBirth: "1960-01-01",
  });
  PATIENT.id = registered.patient.id;
  if (!process.env.DATABASE_URL) await inProcess(source, practice, store);
  await listing(practice, databaseUrl.startsWith("sqlite") ? "SQLite" : databaseUrl.split(":")[0]);
  await storage.close?.();
}

runBenchmark(main);
