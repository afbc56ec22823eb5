import { readFileSync } from "node:fs";
import { seedDemo } from "@openpractice/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../../test/support/runtime-fixture.js";
import { quickstart } from "./quickstart.js";

describe("the client quickstart (docs/client.md)", () => {
  let rt: TestRuntime;
  let token: string;
  beforeAll(async () => {
    rt = await startTestRuntime();
    token = (await seedDemo(rt.runtime.practice, { organisationId: 1, patients: 3, jwtSecret: TEST_SECRET }))
      .token as string;
  });
  afterAll(() => rt.stop());

  it("runs against a freshly seeded runtime", async () => {
    const result = await quickstart(rt.url, token);
    expect(typeof result.patientId).toBe("number");
    expect(result.matches).toBe(1);
    expect(result.code).toBe("PATIENT_NOT_FOUND");
  });

  it("is the code docs/client.md shows", () => {
    const source = readFileSync(new URL("./quickstart.ts", import.meta.url), "utf8");
    const body = source.slice(source.indexOf("  const op ="), source.lastIndexOf("  return"));
    const page = readFileSync(new URL("../../docs/client.md", import.meta.url), "utf8");
    expect(page).toContain(body.replace(/^ {2}/gm, "").trim());
  });
});
