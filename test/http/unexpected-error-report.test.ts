import { createPractice } from "@openpractice/core";
import { createHttpHandler, type HttpHandlerOptions } from "@openpractice/http";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

// A defect (anything thrown that is not a DomainError) answers 500 INTERNAL_ERROR with no detail; the detail must
// reach someone. An embedding host that passes no onUnexpectedError gets it on stderr, never nothing.
describe("unexpected errors are reported by default", () => {
  let storage: Awaited<ReturnType<typeof createSqliteStorage>>;
  const consoleError = vi.spyOn(console, "error");

  beforeAll(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
  });
  afterAll(async () => {
    await storage.close();
    consoleError.mockRestore();
  });
  afterEach(() => void consoleError.mockClear());

  const handlerWith = (options: Partial<HttpHandlerOptions> = {}) =>
    createHttpHandler({
      practice: createPractice({ keys: testPracticeKeys(), storage }),
      // The defect, where every authenticated route passes.
      authenticator: { authenticate: async () => Promise.reject(new TypeError("the session store went away")) },
      ...options,
    });

  it("without onUnexpectedError: one JSON line on stderr with the request id, the route and the stack", async () => {
    const res = await handlerWith()(
      new Request("http://127.0.0.1/v2/patients/7", { headers: { "x-request-id": "defect-1" } }),
    );
    expect(res.status).toBe(500);
    expect((await res.json()).error.code).toBe("INTERNAL_ERROR");
    expect(consoleError).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(consoleError.mock.calls[0]?.[0]));
    expect(line).toEqual({
      level: "error",
      time: expect.any(String),
      request_id: "defect-1",
      method: "GET",
      route: "/v2/patients/:id",
      err: { name: "TypeError", message: "the session store went away", stack: expect.any(String) },
      msg: "unexpected error",
    });
    expect(line.err.stack).toContain("unexpected-error-report.test.ts");
  });

  it("with onUnexpectedError: the host's reporter alone hears it", async () => {
    const heard: unknown[] = [];
    const res = await handlerWith({ onUnexpectedError: (error) => void heard.push(error) })(
      new Request("http://127.0.0.1/apis/v1/patient/7"),
    );
    expect(res.status).toBe(500);
    expect(heard).toEqual([new TypeError("the session store went away")]);
    expect(consoleError).not.toHaveBeenCalled();
  });
});
