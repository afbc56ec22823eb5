import { createPractice, patientFromDraft, toPatientRecord, type Principal } from "@openpractice/core";
import { createMysqlStorage } from "@openpractice/mysql";
import { PREPARABLE, repositoriesOn, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { createPostgresStorage, postgresProfile } from "@openpractice/postgres";
import { CompiledQuery, sql } from "kysely";
import { createPool } from "mysql2";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openRawQuery } from "../support/engines.js";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = {
  organisationId: 7,
  userId: 101,
  name: "Front desk",
  clientId: "opc_test",
  scopes: ["write"],
  clinicIds: [],
  roles: [],
};
const entry = {
  actorUserId: 101,
  actorName: "Front desk",
  clientId: "opc_test",
  action: "v2CreatePatient",
  resourceType: "patient",
  resourceId: null,
  requestId: "req-1",
  changedFields: ["first_name"],
};

/** The first three words of a statement, lower case, its leading comment dropped. */
const head = (text: unknown) =>
  String(text)
    .replace(/^(\/\*.*?\*\/\s*)+/, "")
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .slice(0, 3)
    .join(" ");

// On a server engine every statement of a write is a network round trip. An audited patient create on
// PostgreSQL runs BEGIN, the patient INSERT, ONE statement for its outbox event and audit entry, and COMMIT, in
// one round trip (pipelinedTransactions, over pg's public pipeline mode): the insert takes a reserved id and goes
// ahead of its answer (speculative-inserts.ts), so all four are written with COMMIT. The organisation is ensured by
// a statement only until a commit has made it known to the process. What the server was sent is read off pg's
// connection (the statement each Bind runs, by its Parse's text or name, and each simple Query message), which
// texts it parsed as named statements off the Parse messages; the exchanges off client.query: a query issued while
// none is in flight starts a round trip, and the queries issued before its answers came ride with it.
describe.skipIf(!availableEngines().includes("postgres"))("[postgres] round trips of an audited create", () => {
  const exchanges: string[][] = [];
  const sent: string[] = [];
  const parsedNamed: string[] = [];
  const parsedUnnamed: string[] = [];
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  let url: string;
  /** The pool, its clients' queries, Parses, Binds and simple Queries recorded as they are written. */
  const watched = (watchedPool: pg.Pool) => {
    watchedPool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      let inFlight = 0;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        // pool.query (the test's own reads) passes a callback: not the adapter's.
        if (typeof args.at(-1) === "function") return query(...args);
        const statement = head(typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text);
        if (inFlight === 0) exchanges.push([statement]);
        else exchanges.at(-1)?.push(statement);
        inFlight++;
        const done = () => inFlight--;
        const answer = query(...args) as Promise<unknown>;
        answer.then(done, done);
        return answer;
      };
      // The extended protocol's Parse and Bind, and the simple protocol's Query (a statement without parameters).
      type Connection = {
        parse: (m: { text: string; name?: string }) => void;
        bind: (m: { statement?: string }) => void;
        query: (text: string) => void;
      };
      const connection = (client as unknown as { connection: Connection }).connection;
      const named = new Map<string, string>();
      let unnamed = "";
      const parse = connection.parse.bind(connection);
      connection.parse = (message) => {
        if (message.name) {
          named.set(message.name, message.text);
          parsedNamed.push(head(message.text));
        } else {
          unnamed = message.text;
          parsedUnnamed.push(head(message.text));
        }
        parse(message);
      };
      const bind = connection.bind.bind(connection);
      connection.bind = (message) => {
        sent.push(head(message.statement ? named.get(message.statement) : unnamed));
        bind(message);
      };
      const simple = connection.query.bind(connection);
      connection.query = (text) => {
        sent.push(head(text));
        simple(text);
      };
    });
    return watchedPool;
  };
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase("postgres"));
    // One connection in pg's pipeline mode, as the adapter builds its own: a failed transaction must leave it
    // usable for the next.
    pool = watched(new pg.Pool({ connectionString: url, max: 1, pipeline: true }));
  });
  afterAll(async () => {
    await pool.end();
    await drop();
  });
  const clear = () => {
    exchanges.length = 0;
    sent.length = 0;
    parsedNamed.length = 0;
    parsedUnnamed.length = 0;
  };
  /** A storage on the one-connection pool, and a practice on it. */
  const practiceOnPool = async (options: { preparedStatements?: boolean } = {}) => {
    const storage = await createPostgresStorage({ pool, ...options });
    return { storage, practice: createPractice({ storage, keys: testPracticeKeys() }) };
  };

  it("one round trip per create once the organisation is known; the insert, event and entry commit together", async () => {
    const { storage, practice } = await practiceOnPool();
    const register = (firstName: string) =>
      practice.audit.runAudited(7, entry, () =>
        practice.patients.register(principal, { firstName, lastName: "Trip", dateOfBirth: "1980-01-01" }),
      );
    await register("First"); // ensures the organisation and reserves a block of ids
    clear();
    const second = await register("Second");
    expect(exchanges).toEqual([["begin", 'insert into "patients"', 'with "appended_events" as', "commit"]]);
    expect(sent).toEqual(["begin", 'insert into "patients"', 'with "appended_events" as', "commit"]);
    // The answer is the row as stored.
    expect(second.created).toBe(true);
    expect(await storage.repositories.patients.findById(7, second.patient.id)).toEqual(second.patient);
    const raw = await openRawQuery("postgres", url);
    const events = await raw.query("select event_type, data from outbox where organisation_id = 7 order by id");
    const entries = await raw.query(
      "select action, resource_id from audit_events where organisation_id = 7 order by id",
    );
    await raw.close();
    expect(events.map((e) => e.event_type)).toEqual(["patient.created", "patient.created"]);
    expect(entries).toEqual([
      expect.objectContaining({ action: "v2CreatePatient" }),
      { action: "v2CreatePatient", resource_id: String(second.patient.id) },
    ]);
    await storage.close();
  });

  it("a duplicate refuses the insert ahead at COMMIT; the transaction runs again and answers the patient there", async () => {
    const { storage, practice } = await practiceOnPool();
    const register = () =>
      practice.audit.runAudited(7, entry, () =>
        practice.patients.register(principal, { firstName: "Twice", lastName: "Ahead", dateOfBirth: "1970-05-06" }),
      );
    const raw = await openRawQuery("postgres", url);
    const events = async () => Number((await raw.query("select count(*) as n from outbox"))[0]?.n);
    try {
      const first = await register();
      const before = await events();
      clear();
      const again = await register();
      expect([again.created, again.patient]).toEqual([false, first.patient]);
      expect(sent).toEqual([
        ...["begin", 'insert into "patients"', 'with "appended_events" as', "commit", "rollback"],
        // The insert answering its rows (none: a duplicate), the existing patient read, the audit entry.
        ...["begin", 'insert into "patients"', "select * from", 'insert into "audit_events"', "commit"],
      ]);
      expect(await events()).toBe(before);
      // Ten at once of one new person: one created, nine answered the same patient, one event.
      const at = await events();
      const concurrent = await Promise.all(
        Array.from({ length: 10 }, () =>
          practice.patients.register(principal, { firstName: "Many", lastName: "Ahead", dateOfBirth: "1971-01-01" }),
        ),
      );
      expect(concurrent.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(concurrent.map((r) => r.patient.id)).size).toBe(1);
      expect(await events()).toBe(at + 1);
    } finally {
      await raw.close();
      await storage.close();
    }
  });

  it("a transaction that drops the error an insert ahead caused commits nothing, then runs again and commits all", async () => {
    const storage = await createPostgresStorage({ pool });
    const record = (firstName: string) =>
      toPatientRecord(
        patientFromDraft(
          { firstName, lastName: "Dropped", dateOfBirth: "1975-03-04" },
          7,
          new Date("2026-11-27T00:00:00Z"),
        ),
      );
    const existing = await storage.transaction((tx) => tx.patients.insertIfAbsent(record("Dup")));
    const raw = await openRawQuery("postgres", url);
    const named = async (firstName: string) =>
      Number((await raw.query(`select count(*) as n from patients where first_name = '${firstName}'`))[0]?.n);
    try {
      let runs = 0;
      const [dup, other] = await storage.transaction(async (tx) => {
        runs++;
        const results = [
          await tx.patients.insertIfAbsent(record("Dup")),
          await tx.patients.insertIfAbsent(record("Other")),
        ];
        // The duplicate's refusal is answered to this read; a careless transaction drops it and goes on.
        await tx.patients.findById(7, existing.patient.id).catch(() => undefined);
        return results;
      });
      expect(runs).toBe(2);
      expect([dup?.created, dup?.patient.id]).toEqual([false, existing.patient.id]);
      expect(other?.created).toBe(true);
      expect([await named("Dup"), await named("Other")]).toEqual([1, 1]);
    } finally {
      await raw.close();
      await storage.close();
    }
  });

  it("text the driver would change (a lone surrogate) is inserted waiting for the stored row, which it answers", async () => {
    const { storage, practice } = await practiceOnPool();
    await practice.patients.register(principal, { firstName: "Warm", lastName: "Up", dateOfBirth: "1990-01-01" });
    clear();
    const odd = await practice.patients.register(principal, {
      firstName: "A\uD800b",
      lastName: "Surrogate",
      dateOfBirth: "1990-01-01",
    });
    expect(exchanges).toEqual([
      ["begin", 'insert into "patients"'],
      ['insert into "outbox"', "commit"],
    ]);
    expect(odd.patient).toEqual(await storage.repositories.patients.findById(7, odd.patient.id));
    expect(odd.patient.firstName).toBe("A\uFFFDb");
    await storage.close();
  });

  it("only the transaction the storage opened inserts ahead, not one started from work inside it", async () => {
    const { storage, practice } = await practiceOnPool();
    const draft = { firstName: "Later", lastName: "Timer", dateOfBirth: "1985-05-05" };
    const first = await practice.patients.register(principal, draft);
    let fromTimer: Promise<unknown> = Promise.resolve();
    await storage.transaction(async () => {
      fromTimer = new Promise((resolve, reject) =>
        setTimeout(
          () =>
            storage.db
              .transaction()
              .execute(async (trx) => {
                // A transaction of its own, not the storage's: its insert waits for its answer and reports the duplicate.
                return repositoriesOn(trx, postgresProfile).patients.insertIfAbsent(
                  toPatientRecord(patientFromDraft(draft, 7, new Date())),
                );
              })
              .then(resolve, reject),
          0,
        ),
      );
    });
    await expect(fromTimer).resolves.toMatchObject({ created: false, patient: { id: first.patient.id } });
    await storage.close();
  });

  // The hot inserts (compiled by shape, marked PREPARABLE) are named prepared statements: parsed once per
  // connection, then only bound. The server's own list (pg_prepared_statements) is read on the pool's one connection.
  const preparedOnServer = async () =>
    (await pool.query("select name, statement from pg_prepared_statements order by name")).rows as Array<{
      name: string;
      statement: string;
    }>;

  it("parses the hot inserts once per connection as named statements; later creates only bind them", async () => {
    const { storage, practice } = await practiceOnPool();
    const register = (firstName: string) =>
      practice.audit.runAudited(7, entry, () =>
        practice.patients.register(principal, { firstName, lastName: "Named", dateOfBirth: "1980-01-01" }),
      );
    await register("One"); // each shape's SQL is kept by its first call, marked from the next
    await register("Two");
    clear();
    await register("Three");
    await register("Four");
    expect(parsedNamed).toEqual([]);
    // BEGIN and COMMIT carry no parameters: pg sends them by the simple protocol, unparsed.
    expect(parsedUnnamed).toEqual([]);
    expect(sent).toEqual([
      ...["begin", 'insert into "patients"', 'with "appended_events" as', "commit"],
      ...["begin", 'insert into "patients"', 'with "appended_events" as', "commit"],
    ]);
    const onServer = await preparedOnServer();
    expect(onServer.map((s) => head(s.statement))).toEqual(
      expect.arrayContaining(['insert into "patients"', 'with "appended_events" as']),
    );
    expect(
      onServer.every((s) => /^openpractice_[0-9a-f]{8}_\d+$/.test(s.name) && s.statement.includes(PREPARABLE)),
    ).toBe(true);
    // Turned off, the same creates parse every statement unnamed.
    const { storage: off, practice: offPractice } = await practiceOnPool({ preparedStatements: false });
    const offRegister = (firstName: string) =>
      offPractice.audit.runAudited(7, entry, () =>
        offPractice.patients.register(principal, { firstName, lastName: "Named", dateOfBirth: "1980-01-01" }),
      );
    await offRegister("Five");
    await offRegister("Six");
    const before = (await preparedOnServer()).length;
    clear();
    await offRegister("Seven");
    expect(parsedNamed).toEqual([]);
    expect(parsedUnnamed).toEqual(['insert into "patients"', 'with "appended_events" as']);
    expect(sent).toEqual(["begin", 'insert into "patients"', 'with "appended_events" as', "commit"]);
    expect((await preparedOnServer()).length).toBe(before);
    await off.close();
    await storage.close();
  });

  it("a name is kept once the server parsed it, even when the statement it rode with failed; never one it skipped", async () => {
    const storage = await createPostgresStorage({ pool });
    const raw = await openRawQuery("postgres", url);
    await raw.query("create table named_refused (x int)");
    await raw.query("create table named_later (x int)");
    await raw.query(
      "create function refuse_named() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$",
    );
    const held = CompiledQuery.raw(
      `${SENT_WITH_NEXT_STATEMENT}${PREPARABLE}insert into named_refused values ($1)`,
      [1],
    );
    const later = CompiledQuery.raw(`${PREPARABLE}insert into named_later values ($1)`, [2]);
    const missing = CompiledQuery.raw(`${PREPARABLE}insert into named_missing values ($1)`, [3]);
    const inTransaction = (...queries: CompiledQuery[]) =>
      storage.db.transaction().execute(async (trx) => {
        for (const query of queries) await trx.executeQuery(query);
      });
    try {
      // Refused when it runs (with COMMIT): its Parse was answered, so its name is kept.
      await raw.query(
        "create trigger refuse before insert on named_refused for each row execute function refuse_named()",
      );
      clear();
      await expect(inTransaction(held)).rejects.toThrow(/refused by test/);
      expect(parsedNamed).toEqual(["insert into named_refused"]);
      await raw.query("drop trigger refuse on named_refused");
      clear();
      await inTransaction(held);
      expect(parsedNamed).toEqual([]);
      expect(sent).toEqual(["begin", "insert into named_refused", "commit"]);
      // A Parse the server refuses (no such table) fails the transaction before the statement after it is sent:
      // neither name is kept, and the next transaction parses both.
      clear();
      await expect(inTransaction(missing, later)).rejects.toThrow(/named_missing/);
      await raw.query("create table named_missing (x int)");
      await inTransaction(missing, later);
      expect(parsedNamed).toEqual([
        "insert into named_missing",
        "insert into named_missing",
        "insert into named_later",
      ]);
      clear();
      await inTransaction(missing, later);
      expect(parsedNamed).toEqual([]);
      const [counts] = await raw.query(
        "select (select count(*) from named_later) as later, (select count(*) from named_refused) as refused",
      );
      expect([Number(counts?.later), Number(counts?.refused)]).toEqual([2, 1]);
    } finally {
      await raw.query("drop function if exists refuse_named() cascade");
      await raw.query("drop table if exists named_refused, named_later, named_missing");
      await raw.close();
      await storage.close();
    }
  });

  it("a named statement gone (DEALLOCATE ALL) or stale (a migration changed its rows) costs a retry, not an error", async () => {
    const { storage, practice } = await practiceOnPool();
    const register = (firstName: string) =>
      practice.patients.register(principal, { firstName, lastName: "Stale", dateOfBirth: "1980-01-01" });
    await register("One");
    await register("Two");
    // Something else on the connection drops every prepared statement.
    await pool.query("deallocate all");
    clear();
    const three = await register("Three");
    expect(three.created).toBe(true);
    expect(parsedNamed).toContain('insert into "patients"');
    // A column added to patients changes the rows `insert … returning *` answers (the insert a duplicate
    // registration runs, once its insert ahead was refused): PostgreSQL refuses the old plan.
    await register("Three");
    await register("Three");
    const raw = await openRawQuery("postgres", url);
    try {
      await raw.query("alter table patients add column stale_test int");
      clear();
      const again = await register("Three");
      expect([again.created, again.patient.id]).toEqual([false, three.patient.id]);
      // The insert ahead (no rows answered) is only planned anew; the insert returning rows is refused, forgotten
      // and parsed again under a new name.
      expect(parsedNamed).toEqual(['insert into "patients"']);
      // Every connection forgot its names: the next duplicate parses what the retry did not (its insert ahead; its
      // event's insert, written after the refused insert ahead, is refused in the aborted transaction), a create
      // parses that, and the duplicate after parses nothing.
      expect((await register("Three")).created).toBe(false);
      expect((await register("Four")).created).toBe(true);
      clear();
      expect((await register("Three")).created).toBe(false);
      expect(parsedNamed).toEqual([]);
    } finally {
      await raw.query("alter table patients drop column if exists stale_test");
      await raw.close();
      await storage.close();
    }
  });

  it("names forgotten or left unanswered are closed on the server: its statements do not pile up", async () => {
    const { storage, practice } = await practiceOnPool();
    const duplicate = () =>
      practice.patients.register(principal, { firstName: "Pile", lastName: "Up", dateOfBirth: "1960-02-02" });
    const raw = await openRawQuery("postgres", url);
    const onServer = async () => (await preparedOnServer()).length;
    try {
      await duplicate();
      await duplicate();
      await duplicate();
      const counts: number[] = [];
      // Each column added makes the duplicate's `insert … returning *` stale: every name is forgotten, parsed anew.
      for (let i = 0; i < 4; i++) {
        await raw.query(`alter table patients add column pile_${i} int`);
        expect((await duplicate()).created).toBe(false);
        await duplicate();
        counts.push(await onServer());
      }
      expect(new Set(counts).size).toBe(1);
      // A value pg cannot convert fails its statement with pg's own error in a transaction with a named statement
      // held: the transaction commits nothing, only the held statement's name stays, and the connection goes on.
      await raw.query("create table outbox_never (x int)");
      const before = await onServer();
      const unsendable = {
        toPostgres: () => {
          throw new Error("cannot send this");
        },
      };
      for (let i = 0; i < 3; i++)
        await expect(
          storage.db.transaction().execute(async (trx) => {
            await trx.executeQuery(
              CompiledQuery.raw(`${SENT_WITH_NEXT_STATEMENT}${PREPARABLE}insert into outbox_never values ($1)`, [1]),
            );
            await trx.executeQuery(CompiledQuery.raw(`${PREPARABLE}select $1::text`, [unsendable]));
          }),
        ).rejects.toThrow("cannot send this");
      expect(await onServer()).toBe(before + 1);
      expect(Number((await raw.query("select count(*) as n from outbox_never"))[0]?.n)).toBe(0);
      expect((await duplicate()).created).toBe(false);
    } finally {
      for (let i = 0; i < 4; i++) await raw.query(`alter table patients drop column if exists pile_${i}`);
      await raw.query("drop table if exists outbox_never");
      await raw.close();
      await storage.close();
    }
  });

  it("outside a transaction a gone name is parsed anew and the statement sent again", async () => {
    const storage = await createPostgresStorage({ pool });
    const window = new Date("2026-01-01T00:00:00Z");
    await storage.repositories.rateLimits.hit("gone-name", window);
    await storage.repositories.rateLimits.hit("gone-name", window);
    await pool.query("deallocate all");
    clear();
    expect(await storage.repositories.rateLimits.hit("gone-name", window)).toBe(3);
    expect(parsedNamed).toEqual(['insert into "rate_limit_counters"']);
    await storage.close();
  });

  it("a statement that fails with BEGIN or with COMMIT rolls the whole transaction back; the connection goes on", async () => {
    const { storage, practice } = await practiceOnPool();
    const register = (lastName: string) =>
      practice.patients.register(principal, { firstName: "Fail", lastName, dateOfBirth: "1981-02-03" });
    const raw = await openRawQuery("postgres", url);
    const count = async (table: string) => Number((await raw.query(`select count(*) as n from ${table}`))[0]?.n);
    await raw.query(
      "create function refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by test'; end $$",
    );
    try {
      await register("Warmup"); // the organisation is known from here on
      const [patients, outbox] = [await count("patients"), await count("outbox")];
      // The first statement, written with BEGIN, fails.
      await raw.query("create trigger refuse_patient before insert on patients for each row execute function refuse()");
      await expect(register("First")).rejects.toThrow(/refused by test/);
      await raw.query("drop trigger refuse_patient on patients");
      // The appends, written with COMMIT, fail: the patient inserted before them is rolled back with them.
      await raw.query("create trigger refuse_event before insert on outbox for each row execute function refuse()");
      clear();
      await expect(register("Second")).rejects.toThrow(/refused by test/);
      expect(sent).toEqual(["begin", 'insert into "patients"', 'insert into "outbox"', "commit", "rollback"]);
      await raw.query("drop trigger refuse_event on outbox");
      expect([await count("patients"), await count("outbox")]).toEqual([patients, outbox]);
      // The one connection is usable, outside and inside a transaction.
      await register("Third");
      expect([await count("patients"), await count("outbox")]).toEqual([patients + 1, outbox + 1]);
    } finally {
      await raw.query("drop function if exists refuse() cascade");
      await raw.close();
      await storage.close();
    }
  });

  it("a transaction without statements sends nothing; a rolled-back one drops what it held", async () => {
    const storage = await createPostgresStorage({ pool });
    clear();
    expect(await storage.transaction(async () => "nothing")).toBe("nothing");
    expect(sent).toEqual([]);
    await expect(
      storage.transaction(async (tx) => {
        await tx.outbox.append({
          eventType: "patient.created",
          organisationId: 7,
          data: { organisation_id: 7, patient_id: 1 },
          occurredAt: new Date(),
        } as never);
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    // The append waited for the end of the work, which never came: nothing reached the server.
    expect(sent).toEqual([]);
    await expect(
      storage.transaction(async (tx) => {
        await tx.patients.findById(7, 1);
        throw new Error("after a read");
      }),
    ).rejects.toThrow("after a read");
    expect(sent).toEqual(["begin", "select * from", "rollback"]);
    await storage.close();
  });

  it("a first statement without parameters (several commands, as a migration may send) rides with BEGIN", async () => {
    const storage = await createPostgresStorage({ pool });
    clear();
    await storage.db.transaction().execute(async (trx) => {
      await sql.raw("create table pipelined_a (x int); create table pipelined_b (y int)").execute(trx);
    });
    expect(exchanges).toEqual([["begin", "create table pipelined_a"], ["commit"]]);
    // A failure after such a statement rolls both commands back.
    await expect(
      storage.db.transaction().execute(async (trx) => {
        await sql.raw("create table pipelined_c (x int); create table pipelined_d (y int)").execute(trx);
        await sql`select 1 / ${0}`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    const raw = await openRawQuery("postgres", url);
    const tables = await raw.query(
      "select table_name from information_schema.tables where table_name like 'pipelined_%' order by table_name",
    );
    await raw.close();
    expect(tables.map((t) => t.table_name)).toEqual(["pipelined_a", "pipelined_b"]);
    await storage.close();
  });

  it("on a pool without pipeline mode (stock pg) every statement is its own round trip, the inserts still named", async () => {
    const stock = watched(new pg.Pool({ connectionString: url, max: 1 }));
    const storage = await createPostgresStorage({ pool: stock });
    try {
      const practice = createPractice({ storage, keys: testPracticeKeys() });
      const register = (firstName: string) =>
        practice.audit.runAudited(7, entry, () =>
          practice.patients.register(principal, { firstName, lastName: "Stock", dateOfBirth: "1980-01-01" }),
        );
      await register("One");
      await register("Two");
      clear();
      const three = await register("Three");
      expect(exchanges).toEqual([["begin"], ['insert into "patients"'], ['with "appended_events" as'], ["commit"]]);
      expect(parsedNamed).toEqual([]);
      expect(three.patient).toEqual(await storage.repositories.patients.findById(7, three.patient.id));
      // A duplicate: its insert ahead is refused at once, and the transaction runs again waiting for the insert.
      const again = await register("Three");
      expect([again.created, again.patient.id]).toEqual([false, three.patient.id]);
    } finally {
      await storage.close();
      await stock.end();
    }
  });

  it("the pool built from a URL runs in pipeline mode; pipelining: false or ?pipelining=false builds a stock one", async () => {
    const modes: boolean[] = [];
    const connect = pg.Pool.prototype.connect;
    // Reads each checked-out client's public `pipeline` flag.
    pg.Pool.prototype.connect = async function (this: pg.Pool) {
      const client = await (connect as (this: pg.Pool) => Promise<pg.PoolClient>).call(this);
      modes.push(client.pipeline);
      return client;
    } as typeof connect;
    try {
      for (const [options, pipeline] of [
        [{ url }, true],
        [{ url: `${url}?pipelining=false` }, false],
        [{ url, pipelining: false }, false],
      ] as const) {
        modes.length = 0;
        const storage = await createPostgresStorage({ ...options, migrate: false });
        await storage.transaction((tx) => tx.patients.findById(7, 1));
        await storage.close();
        expect(modes.length).toBeGreaterThan(0);
        expect(new Set(modes)).toEqual(new Set([pipeline]));
      }
    } finally {
      pg.Pool.prototype.connect = connect;
    }
  });
});

// MariaDB returns an INSERT's rows (INSERT … RETURNING; the adapter picks mariaDbProfile from the server's
// version): a registration reads its row back only when it skipped a duplicate. What was sent is read off the
// pool's connections (mysql2's query, which Kysely's MySQL dialect calls for every statement).
describe.skipIf(!availableEngines().includes("mysql"))("[mysql] round trips of a create on MariaDB", () => {
  it("inserts and returns the row in one statement; a duplicate reads the existing one", async () => {
    const { url, drop } = await freshDatabase("mysql");
    const pool = createPool({ uri: url, charset: "utf8mb4", timezone: "Z", supportBigNumbers: true });
    const sent: string[] = [];
    pool.on("connection", (connection) => {
      const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
      (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        sent.push(head(typeof args[0] === "string" ? args[0] : (args[0] as { sql?: string }).sql));
        return query(...args);
      };
    });
    const storage = await createMysqlStorage({ pool });
    try {
      const practice = createPractice({ storage, keys: testPracticeKeys() });
      const register = () =>
        practice.patients.register(principal, { firstName: "Maria", lastName: "Trip", dateOfBirth: "1980-01-01" });
      const first = await register(); // ensures the organisation
      expect(first.created).toBe(true);
      sent.length = 0;
      const again = await register();
      expect(again).toMatchObject({ created: false, patient: { id: first.patient.id, firstName: "Maria" } });
      expect(sent.filter((s) => s.startsWith("select"))).toHaveLength(1); // the duplicate's read-back
      sent.length = 0;
      const other = await practice.patients.register(principal, {
        firstName: "Other",
        lastName: "Trip",
        dateOfBirth: "1980-01-01",
      });
      expect(other).toMatchObject({ created: true, patient: { firstName: "Other", lastName: "Trip" } });
      expect(other.patient.id).toBeGreaterThan(first.patient.id);
      expect(sent).toEqual(["begin", "insert ignore into", "insert into `outbox`", "commit"]);
    } finally {
      await storage.close();
      await new Promise((resolve) => pool.end(resolve));
      await drop();
    }
  });
});

// With a pool that allows several statements in one text (the adapter's own pool does; a vendor's may), a
// transaction's statements ride together as on PostgreSQL (adapters/mysql/src/pipelined-transactions.ts): START
// TRANSACTION with the first statement, the outbox event and the audit entry with COMMIT. What was sent is read off
// mysql2's query: one call is one text, one round trip.
describe.skipIf(!availableEngines().includes("mysql"))("[mysql] pipelined transactions", () => {
  let url: string;
  let drop: () => Promise<void>;
  let pool: ReturnType<typeof createPool>;
  const texts: string[][] = [];
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase("mysql"));
    // One connection: a failed transaction must leave it usable for the next.
    pool = createPool({
      uri: url,
      charset: "utf8mb4",
      timezone: "Z",
      supportBigNumbers: true,
      multipleStatements: true,
      connectionLimit: 1,
    });
    pool.on("connection", (connection) => {
      const query = connection.query.bind(connection) as (...args: unknown[]) => unknown;
      (connection as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const text = String(typeof args[0] === "string" ? args[0] : (args[0] as { sql?: string }).sql);
        texts.push(text.split("\n;\n").map(head));
        return query(...args);
      };
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => pool.end(resolve));
    await drop();
  });

  it("two round trips per audited create; the event and entry commit with the patient", async () => {
    const storage = await createMysqlStorage({ pool });
    try {
      const practice = createPractice({ storage, keys: testPracticeKeys() });
      const register = (firstName: string) =>
        practice.audit.runAudited(7, entry, () =>
          practice.patients.register(principal, { firstName, lastName: "Pipe", dateOfBirth: "1980-01-01" }),
        );
      await register("First"); // ensures the organisation
      texts.length = 0;
      const second = await register("Second");
      expect(second.created).toBe(true);
      expect(texts).toEqual([
        ["begin", "insert ignore into"],
        ["insert into `outbox`", "insert into `audit_events`", "commit"],
      ]);
      // A duplicate: nothing appended but its audit entry; the existing row read back.
      texts.length = 0;
      const again = await register("Second");
      expect(again).toMatchObject({ created: false, patient: { id: second.patient.id } });
      expect(texts).toEqual([
        ["begin", "insert ignore into"],
        ["select * from"],
        ["insert into `audit_events`", "commit"],
      ]);
      const raw = await openRawQuery("mysql", url);
      const events = await raw.query("select event_type from outbox where organisation_id = 7 order by id");
      const entries = await raw.query("select resource_id from audit_events where organisation_id = 7 order by id");
      await raw.close();
      expect(events.map((e) => e.event_type)).toEqual(["patient.created", "patient.created"]);
      // Three audited registrations, three entries; the created one names its patient.
      expect(entries).toHaveLength(3);
      expect(entries[1]?.resource_id).toBe(String(second.patient.id));
    } finally {
      await storage.close();
    }
  });

  it("a statement that fails with START TRANSACTION or with COMMIT rolls the whole transaction back", async () => {
    const storage = await createMysqlStorage({ pool });
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    const register = (lastName: string) =>
      practice.patients.register(principal, { firstName: "Fail", lastName, dateOfBirth: "1981-02-03" });
    const raw = await openRawQuery("mysql", url);
    const count = async (table: string) => Number((await raw.query(`select count(*) as n from ${table}`))[0]?.n);
    const refuse = (name: string, table: string) =>
      raw.query(
        `create trigger ${name} before insert on ${table} for each row signal sqlstate '45000' set message_text = 'refused by test'`,
      );
    try {
      await register("Warmup");
      const [patients, outbox] = [await count("patients"), await count("outbox")];
      await refuse("refuse_patient", "patients");
      await expect(register("First")).rejects.toThrow(/refused by test/);
      await raw.query("drop trigger refuse_patient");
      await refuse("refuse_event", "outbox");
      texts.length = 0;
      await expect(register("Second")).rejects.toThrow(/refused by test/);
      expect(texts).toEqual([["begin", "insert ignore into"], ["insert into `outbox`", "commit"], ["rollback"]]);
      await raw.query("drop trigger refuse_event");
      expect([await count("patients"), await count("outbox")]).toEqual([patients, outbox]);
      await register("Third");
      expect([await count("patients"), await count("outbox")]).toEqual([patients + 1, outbox + 1]);
    } finally {
      await raw.query("drop trigger if exists refuse_patient");
      await raw.query("drop trigger if exists refuse_event");
      await raw.close();
      await storage.close();
    }
  });

  it("a transaction without statements sends nothing; a rolled-back one drops what it held; values stay escaped", async () => {
    const storage = await createMysqlStorage({ pool });
    try {
      texts.length = 0;
      expect(await storage.transaction(async () => "nothing")).toBe("nothing");
      expect(texts).toEqual([]);
      const event = (data: Record<string, unknown>) =>
        ({ eventType: "patient.created", organisationId: 7, data, occurredAt: new Date() }) as never;
      await expect(
        storage.transaction(async (tx) => {
          await tx.outbox.append(event({ organisation_id: 7, patient_id: 1 }));
          throw new Error("changed my mind");
        }),
      ).rejects.toThrow("changed my mind");
      expect(texts).toEqual([]);
      // A value that would end the statement and start another if it were spliced in unescaped, with placeholders
      // that a second formatting pass (mysql2 formats the combined text again, with no values) must leave alone.
      const hostile = "x'); delete from outbox; -- \\' what? ?? :name";
      await storage.transaction(async (tx) => {
        await tx.outbox.append(event({ organisation_id: 7, note: hostile }));
        await tx.patients.findById(7, 1);
      });
      const raw = await openRawQuery("mysql", url);
      const rows = await raw.query("select data from outbox where organisation_id = 7 order by id desc limit 1");
      const total = Number((await raw.query("select count(*) as n from outbox"))[0]?.n);
      await raw.close();
      expect(JSON.parse(String(rows[0]?.data)).note).toBe(hostile);
      expect(total).toBeGreaterThan(0);
    } finally {
      await storage.close();
    }
  });
});
