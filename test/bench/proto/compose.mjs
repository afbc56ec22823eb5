// PROTOTYPES, not product code: our stack composed as the runtime does
// (storage → practice → HTTP handler), with optional changes bolted on from the
// outside so their effect can be measured before anyone edits packages/ or
// adapters/. Each option names the change it stands for (docs/performance.md).
import BetterSqlite3 from "better-sqlite3";
import { jwtVerify } from "jose";
import { sql } from "kysely";
import { createPractice } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, principalFromClaims } from "@openpractice/http";
import { insertIgnoringDuplicate, patientToRow, rowToPatient } from "@openpractice/kysely";
import { createSqliteStorage, sqliteProfile } from "@openpractice/sqlite";

export const PROTO_OPTIONS = ["stmt-cache", "jwt-key", "org-cache", "lean-register", "fts"];

/** stmt-cache: better-sqlite3 statements reused by SQL text (Kysely's SqliteDriver prepares every query anew). */
function cachingDatabase(raw, max = 200) {
  const cache = new Map();
  const prepare = (text) => {
    let stmt = cache.get(text);
    if (!stmt) {
      if (cache.size >= max) cache.delete(cache.keys().next().value);
      cache.set(text, (stmt = raw.prepare(text)));
    }
    return stmt;
  };
  return new Proxy(raw, {
    get: (t, p) => (p === "prepare" ? prepare : typeof t[p] === "function" ? t[p].bind(t) : t[p]),
  });
}

/** jwt-key: the HS256 key imported into WebCrypto once, not on every jwtVerify (jose imports a Uint8Array per call). */
async function keyedAuthenticator(secret) {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const fallback = createJwtAuthenticator({ secret });
  return {
    async authenticate(request) {
      const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
      if (!token) return fallback.authenticate(request); // error paths unchanged
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ["HS256"],
          clockTolerance: 30,
          requiredClaims: ["exp"],
        });
        return principalFromClaims(payload);
      } catch {
        return fallback.authenticate(request);
      }
    },
  };
}

/** org-cache: the rate limiter's per-request organisation lookup answered from memory for a few seconds. */
function cacheOrganisations(organisations, ttlMs = 5000) {
  const cache = new Map();
  const findById = organisations.findById.bind(organisations);
  organisations.findById = async (id) => {
    const hit = cache.get(id);
    if (hit && hit.until > Date.now()) return hit.org;
    const org = await findById(id);
    cache.set(id, { org, until: Date.now() + ttlMs });
    return org;
  };
}

/**
 * lean-register: the registration transaction in 3 statements instead of 5:
 * organisations.ensure without the read-back (register ignores the row) and the
 * patient insert with RETURNING instead of insert + select by identity.
 * (`db` is the repositories' private Kysely handle; reachable in JS, fine for a prototype.)
 */
function leanRegister(storage) {
  const transaction = storage.transaction.bind(storage);
  storage.transaction = (fn) =>
    transaction((tx) => {
      const db = tx.patients.db;
      const organisations = Object.assign(Object.create(tx.organisations), {
        ensure: async (o) => {
          const at = o.now.toISOString();
          await insertIgnoringDuplicate(
            db,
            sqliteProfile,
            "organisations",
            { id: o.id, name: o.name, plan: o.plan, is_active: 1, created_at: at, updated_at: at },
            ["id"],
          );
        },
      });
      const patients = Object.assign(Object.create(tx.patients), {
        insertIfAbsent: async (record) => {
          const row = await db
            .insertInto("patients")
            .values(patientToRow(record))
            .onConflict((oc) => oc.columns(["organisation_id", "identity_key"]).doNothing())
            .returningAll()
            .executeTakeFirst();
          if (row) return { created: true, patient: rowToPatient(row) };
          const existing = await db
            .selectFrom("patients")
            .selectAll()
            .where("organisation_id", "=", record.organisationId)
            .where("identity_key", "=", record.identityKey)
            .executeTakeFirstOrThrow();
          return { created: false, patient: rowToPatient(existing) };
        },
      });
      return fn({ ...tx, organisations, patients });
    });
}

/** fts: an FTS5 trigram index over search_text, kept by triggers; what a migration would add. */
export function installTrigramIndex(raw) {
  raw.exec(`
    CREATE VIRTUAL TABLE IF NOT EXISTS patients_search USING fts5(search_text, content='patients', content_rowid='id', tokenize='trigram');
    CREATE TRIGGER IF NOT EXISTS patients_search_ai AFTER INSERT ON patients BEGIN
      INSERT INTO patients_search(rowid, search_text) VALUES (new.id, new.search_text);
    END;
    CREATE TRIGGER IF NOT EXISTS patients_search_ad AFTER DELETE ON patients BEGIN
      INSERT INTO patients_search(patients_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    END;
    CREATE TRIGGER IF NOT EXISTS patients_search_au AFTER UPDATE OF search_text ON patients BEGIN
      INSERT INTO patients_search(patients_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
      INSERT INTO patients_search(rowid, search_text) VALUES (new.id, new.search_text);
    END;
    INSERT INTO patients_search(patients_search) VALUES ('rebuild');`);
}

/** An FTS5 phrase per term: substring match, as LIKE '%term%' (trigram needs 3+ characters). */
export const trigramMatch = (terms) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");

/**
 * fts: the list driven by the trigram index when every term has 3+ characters
 * and no time bounds are set (the rest keeps the LIKE scan). Orders the matching
 * ids first and reads only the page's rows.
 */
function trigramList(storage) {
  const repo = storage.repositories.patients;
  const db = repo.db;
  const list = repo.list.bind(repo);
  repo.list = async (c) => {
    const plain = !c.createdFrom && !c.createdBefore && !c.updatedFrom && !c.updatedBefore;
    if (c.searchTerms.length === 0 || !plain || c.searchTerms.some((t) => [...t].length < 3)) return list(c);
    const status = c.status === "all" ? sql`` : sql`and p.status = ${c.status}`;
    const matching = sql`from patients_search join patients p on p.id = patients_search.rowid
      where patients_search match ${trigramMatch(c.searchTerms)} and p.organisation_id = ${c.organisationId} ${status}`;
    const dir = sql.raw(c.order === "asc" ? "asc" : "desc");
    const sort = {
      created_at: "created_at",
      updated_at: "updated_at",
      last_name: "last_name_sort",
      first_name: "first_name_sort",
    }[c.sort];
    const page =
      await sql`select * from patients where id in (select p.id ${matching} order by p.${sql.ref(sort)} ${dir}, p.id ${dir} limit ${c.limit} offset ${c.offset})
      order by ${sql.ref(sort)} ${dir}, id ${dir}`.execute(db);
    const counted = await sql`select count(*) as n ${matching}`.execute(db);
    return { patients: page.rows.map(rowToPatient), total: Number(counted.rows[0].n) };
  };
}

/** Our stack over `filename` with the given prototype options; `secret` signs the tokens. */
export async function composeOurs(filename, secret, options = []) {
  const unknown = options.filter((o) => !PROTO_OPTIONS.includes(o));
  if (unknown.length > 0) throw new Error(`unknown prototype option(s): ${unknown.join(", ")}`);
  const raw = new BetterSqlite3(filename);
  if (options.includes("fts")) installTrigramIndex(raw);
  const storage = await createSqliteStorage({ database: options.includes("stmt-cache") ? cachingDatabase(raw) : raw });
  if (options.includes("org-cache")) cacheOrganisations(storage.repositories.organisations);
  if (options.includes("lean-register")) leanRegister(storage);
  if (options.includes("fts")) trigramList(storage);
  const practice = createPractice({ storage, planLimits: { enterprise: 100_000_000 } });
  const authenticator = options.includes("jwt-key")
    ? await keyedAuthenticator(secret)
    : createJwtAuthenticator({ secret });
  const handler = createHttpHandler({ practice, authenticator });
  return { raw, storage, practice, authenticator, handler, close: async () => (await storage.close(), raw.close()) };
}
