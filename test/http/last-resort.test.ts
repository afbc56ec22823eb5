import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createPractice, DomainError, type Storage } from "@openpractice/core";
import { openPracticeMiddleware } from "@openpractice/express";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, type FetchHandler, type RequestLogEntry } from "@openpractice/http";
import { createLogger, loadConfig, startRuntime, TOKENS } from "@openpractice/runtime";
import { createSqliteStorage } from "@openpractice/sqlite";
import express from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { testPracticeKeys } from "../support/practice-keys.js";

/** A thrown value that throws on every touch: instanceof, property reads, key listing, conversion. */
function poison(): unknown {
  const fail = () => {
    throw new Error("poisoned");
  };
  return new Proxy({}, { get: fail, getPrototypeOf: fail, ownKeys: fail, has: fail, getOwnPropertyDescriptor: fail });
}

/** A DomainError whose details hold a cycle (JSON.stringify throws on it) and a value whose toJSON throws. */
function cyclicDomainError(): DomainError {
  const cycle: Record<string, unknown> = { name: "loop" };
  cycle.self = cycle;
  const hostile = {
    toJSON: () => {
      throw new Error("toJSON failed");
    },
  };
  return new DomainError("VALIDATION_FAILED", "Invalid input: f: r", {
    issues: [{ field: "f", reason: "r", value: cycle }],
    extra: hostile,
  });
}

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const hosts: [string, (handler: FetchHandler) => Promise<{ url: string; close(): Promise<void> }>][] = [
  ["h3", (handler) => listen(createH3NodeServer(handler))],
  [
    "express",
    (handler) => {
      const app = express();
      app.use(openPracticeMiddleware(handler));
      return listen(createServer(app));
    },
  ],
];

for (const [hostName, startHost] of hosts) {
  describe(`[${hostName}] the last-resort error path`, () => {
    let storage: Storage;
    let host: Awaited<ReturnType<typeof startHost>>;
    let thrown: () => unknown = poison;
    const unexpected: unknown[] = [];
    const completed: RequestLogEntry[] = [];
    const consoleError = vi.spyOn(console, "error");

    beforeAll(async () => {
      storage = await createSqliteStorage({ filename: ":memory:" });
      const handler = createHttpHandler({
        practice: createPractice({ keys: testPracticeKeys(), storage }),
        // The failure is forced where every authenticated route passes: the authenticator throws `thrown()`.
        authenticator: { authenticate: async () => Promise.reject(thrown()) },
        onUnexpectedError: (error) => void unexpected.push(error),
        onRequestComplete: (entry) => void completed.push(entry),
      });
      host = await startHost(handler);
    });
    afterAll(async () => {
      await host.close();
      await storage.close();
      consoleError.mockRestore();
    });
    afterEach(() => {
      unexpected.length = 0;
      completed.length = 0;
      consoleError.mockClear();
    });

    it.each([
      ["/apis/v1/patient/1", "v1"],
      ["/v2/patients/1", "v2"],
    ])(
      "a thrown value that throws when touched: GET %s answers the %s 500 shape with the request id",
      async (path, contract) => {
        thrown = poison;
        const res = await fetch(`${host.url}${path}`, { headers: { "x-request-id": `poison-${contract}` } });
        expect(res.status).toBe(500);
        expect(res.headers.get("x-request-id")).toBe(`poison-${contract}`);
        expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
        const body = await res.json();
        if (contract === "v1")
          expect(body).toEqual({
            code: 5000,
            data: null,
            message: "Internal error; the request id identifies it in the server log",
            error_code: "INTERNAL_ERROR",
          });
        else
          expect(body).toEqual({
            error: {
              code: "INTERNAL_ERROR",
              message: "Internal error; the request id identifies it in the server log",
              details: {},
            },
            meta: { timestamp: expect.any(String), request_id: "poison-v2" },
          });
        expect(unexpected).toHaveLength(1);
        expect(completed).toMatchObject([
          { requestId: `poison-${contract}`, status: 500, errorCode: "INTERNAL_ERROR" },
        ]);
        // Nothing printed by the host (h3 prints a raw stack for a handler that throws).
        expect(consoleError).not.toHaveBeenCalled();
      },
    );

    it("a DomainError with a cyclic value and a throwing toJSON in its details still renders, bounded", async () => {
      thrown = cyclicDomainError;
      const res = await fetch(`${host.url}/v2/patients/1`, { headers: { "x-request-id": "cyclic-1" } });
      expect(res.status).toBe(400);
      expect(res.headers.get("x-request-id")).toBe("cyclic-1");
      const body = await res.json();
      expect(body.error.code).toBe("VALIDATION_FAILED");
      expect(body.error.details.extra).toEqual({ toJSON: "[function]" });
      expect(JSON.stringify(body.error.details.errors[0].value)).toContain("[object with 2 fields]");
      expect(unexpected).toHaveLength(0);
      expect(consoleError).not.toHaveBeenCalled();
    });
  });
}

describe("the runtime logs a failure of the error path as one JSON line", () => {
  it("one 'unexpected error' line and one 'request' line, both JSON, with the request id", async () => {
    const temp = makeTempDir();
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: `sqlite://${temp.dir}/db.sqlite`,
      OPENPRACTICE_DATA_DIR: temp.dir,
      OPENPRACTICE_JWT_SECRET: "s".repeat(40),
      LOG_LEVEL: "info",
      OPENPRACTICE_ENV: "development",
    });
    const runtime = await startRuntime({ config, logger: createLogger("info", sink) });
    const consoleError = vi.spyOn(console, "error");
    try {
      // The real runtime's authenticator, made to throw a value that throws when touched.
      const authenticator = runtime.container.resolve<{ authenticate: () => Promise<unknown> }>(TOKENS.Authenticator);
      authenticator.authenticate = async () => Promise.reject(poison());
      lines.length = 0;
      const res = await fetch(`${runtime.url}/v2/patients`, { headers: { "x-request-id": "log-line-1" } });
      expect(res.status).toBe(500);
      expect(res.headers.get("x-request-id")).toBe("log-line-1");
      const entries = lines.map((line) => JSON.parse(line));
      const mine = entries.filter((e) => e.request_id === "log-line-1");
      expect(mine.map((e) => e.msg)).toEqual(["unexpected error", "request"]);
      // What failed is the error path touching the value; its stack travels inside the JSON line.
      expect(mine[0]).toMatchObject({
        level: 50,
        route: "/v2/patients",
        err: { name: "Error", message: "poisoned", stack: expect.stringContaining("\n    at ") },
      });
      expect(mine[1]).toMatchObject({ status: 500, error_code: "INTERNAL_ERROR", route: "/v2/patients" });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      await runtime.stop();
      temp.remove();
    }
  });
});
