import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExpressEmr } from "../../examples/embed-express/server.js";
import { makeTempDir } from "../support/temp-dir.js";
import { testPracticeKeys } from "../support/practice-keys.js";

let emr: Awaited<ReturnType<typeof startExpressEmr>>;
const temp = makeTempDir();
beforeAll(async () => {
  emr = await startExpressEmr({
    port: 0,
    databaseFile: join(temp.dir, "emr.db"),
    sessionSecret: "example-session-secret",
    keys: testPracticeKeys(),
  });
});
afterAll(async () => {
  await emr.close();
  temp.remove();
});

async function login(email: string, password: string): Promise<string> {
  const res = await fetch(`${emr.url}/login`, {
    method: "POST",
    body: new URLSearchParams({ email, password }),
    redirect: "manual",
  });
  expect(res.status).toBe(303);
  return (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
}

describe("example: an Express EMR with its own session login, OpenPractice under /emr", () => {
  it("maps EMR sessions to principals: therapists write, billing reads, strangers get 401", async () => {
    const therapist = await login("maya@clinic.example", "correct horse");
    const created = await fetch(`${emr.url}/emr/apis/v1/patient`, {
      method: "POST",
      headers: { cookie: therapist, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Session", last_name: "Patient", date_of_birth: "1975-05-05" }),
    });
    expect(await created.json()).toMatchObject({ code: 2000, data: { organisation_id: 12, first_name: "Session" } });

    const billing = await login("bill@clinic.example", "battery staple");
    const list = await (await fetch(`${emr.url}/emr/v2/patients`, { headers: { cookie: billing } })).json();
    expect(list.data.map((p: { last_name: string }) => p.last_name)).toEqual(["Patient"]);
    const refused = await fetch(`${emr.url}/emr/v2/patients`, {
      method: "POST",
      headers: { cookie: billing, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "A", last_name: "B", date_of_birth: "1990-01-01" }),
    });
    expect(refused.status).toBe(403);

    const forged = `${therapist.split(".")[0]}.AAAA`;
    expect((await fetch(`${emr.url}/emr/v2/patients`, { headers: { cookie: forged } })).status).toBe(401);
    expect(
      (
        await fetch(`${emr.url}/login`, {
          method: "POST",
          body: new URLSearchParams({ email: "maya@clinic.example", password: "nope" }),
        })
      ).status,
    ).toBe(401);
    expect(await (await fetch(`${emr.url}/`)).text()).toContain("Example EMR");
  });
});
