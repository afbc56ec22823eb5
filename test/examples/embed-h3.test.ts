import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedEmr } from "../../examples/embed-h3/server.js";
import { makeTempDir } from "../support/temp-dir.js";
import { testPracticeKeys } from "../support/practice-keys.js";

let emr: Awaited<ReturnType<typeof startEmbeddedEmr>>;
let temp: ReturnType<typeof makeTempDir>;
beforeAll(async () => {
  temp = makeTempDir();
  emr = await startEmbeddedEmr({ port: 0, databaseFile: join(temp.dir, "emr.db"), keys: testPracticeKeys() });
});
afterAll(async () => {
  await emr.close();
  temp.remove();
});

describe("example: OpenPractice embedded in an h3 app under /emr with the app's own auth", () => {
  it("keeps the host's routes and serves OpenPractice under the prefix with mapped principals", async () => {
    expect(await (await fetch(`${emr.url}/`)).json()).toEqual({ app: "Example EMR", openpractice: "/emr" });
    const created = await fetch(`${emr.url}/emr/v2/patients`, {
      method: "POST",
      headers: { "x-emr-key": "key-front-desk", "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Embedded", last_name: "Patient", date_of_birth: "1999-09-09" }),
    });
    expect(created.status).toBe(201);
    const list = await (await fetch(`${emr.url}/emr/v2/patients`, { headers: { "x-emr-key": "key-auditor" } })).json();
    expect(list.data.map((p: { first_name: string }) => p.first_name)).toEqual(["Embedded"]);
    const readOnly = await fetch(`${emr.url}/emr/apis/v1/patient`, {
      method: "POST",
      headers: { "x-emr-key": "key-auditor", "content-type": "application/json" },
      body: JSON.stringify({ first_name: "No", last_name: "Write", date_of_birth: "1999-09-09" }),
    });
    expect(readOnly.status).toBe(403);
    const anonymous = await fetch(`${emr.url}/emr/apis/v1/patient/1`);
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${emr.url}/emr/healthz`)).status).toBe(200);
  });
});
