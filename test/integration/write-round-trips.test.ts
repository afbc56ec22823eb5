import { createPractice, type Principal } from "@openpractice/core";
import { createPostgresStorage } from "@openpractice/postgres";
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

// On a server engine every statement of a write is a network round trip. An audited patient create on
// PostgreSQL sends BEGIN, the patient INSERT, ONE statement for its outbox event and audit entry, and COMMIT;
// the organisation is ensured by a statement only until a commit has made it known to the process.
describe.skipIf(!availableEngines().includes("postgres"))("[postgres] round trips of an audited create", () => {
  const statements: string[] = [];
  let pool: pg.Pool;
  let drop: () => Promise<void>;
  let url: string;
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase("postgres"));
    pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("connect", (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text;
        statements.push(String(text).trim().toLowerCase().split(/\s+/).slice(0, 3).join(" "));
        return query(...args);
      };
    });
  });
  afterAll(async () => {
    await pool.end();
    await drop();
  });

  it("four statements per create once the organisation is known; event and entry commit with the patient", async () => {
    const storage = await createPostgresStorage({ pool });
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    const register = (firstName: string) =>
      practice.audit.runAudited(7, entry, () =>
        practice.patients.register(principal, { firstName, lastName: "Trip", dateOfBirth: "1980-01-01" }),
      );
    await register("First");
    statements.length = 0;
    const second = await register("Second");
    expect(statements).toEqual(["begin", 'insert into "patients"', 'with "appended_events" as', "commit"]);
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
});
