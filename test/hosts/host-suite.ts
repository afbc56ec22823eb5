import { request } from "node:http";
import { connect } from "node:net";
import { createPractice, patientFromDraft, toPatientRecord, type Storage } from "@openpractice/core";
import { PdfLibSummaryRenderer } from "@openpractice/pdf-lib";
import { createHttpHandler, createJwtAuthenticator, type FetchHandler } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

/** A host under test: serves `handler` under `prefix` ("" for the root) on 127.0.0.1. */
export type StartHost = (handler: FetchHandler, prefix: string) => Promise<{ url: string; close(): Promise<void> }>;

const SECRET = "host-suite-secret-0123456789-abcdefghijkl";
const BIG_ASSET = new Uint8Array(3 * 1024 * 1024).map((_, i) => i % 251);

/** The body of a raw HTTP/1.1 reply, decoding chunked transfer coding. */
function httpBody(reply: string): string {
  const split = reply.indexOf("\r\n\r\n");
  const head = reply.slice(0, split).toLowerCase();
  let rest = reply.slice(split + 4);
  if (!/\r\ntransfer-encoding: chunked/.test(head)) return rest;
  let body = "";
  for (;;) {
    const line = rest.indexOf("\r\n");
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return body;
    body += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

/**
 * Every host adapter must behave the same: this suite runs unchanged for h3
 * and Express, at the root and under a path prefix.
 */
export function runHostSuite(hostName: string, startHost: StartHost): void {
  for (const prefix of ["", "/emr"]) {
    describe(`[${hostName}] host ${prefix || "at the root"}`, () => {
      let storage: Storage;
      let host: Awaited<ReturnType<StartHost>>;
      let token: string;
      const base = () => `${host.url}${prefix}`;

      beforeAll(async () => {
        storage = await createSqliteStorage({ filename: ":memory:" });
        const handler = createHttpHandler({
          practice: createPractice({ keys: testPracticeKeys(), storage, planLimits: { free: 100_000 } }),
          authenticator: createJwtAuthenticator({ secret: SECRET }),
          // A large file through the docs-asset route shows the host streams response bodies intact.
          docsAssets: async (name) =>
            name === "swagger-ui-bundle.js" ? { body: BIG_ASSET, contentType: "text/javascript" } : null,
        });
        host = await startHost(handler, prefix);
        token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
      });
      afterAll(async () => {
        await host.close();
        await storage.close();
      });

      const json = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
        fetch(`${base()}${path}`, {
          method,
          body: body ?? null,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
        });

      it("passes status, headers and bodies through unchanged", async () => {
        const created = await json(
          "POST",
          "/v2/patients",
          JSON.stringify({ first_name: "Host", last_name: "Suite", date_of_birth: "1990-01-01" }),
        );
        expect(created.status).toBe(201);
        expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");
        // The Location points at the resource under the mount path, whichever host mounted it.
        expect(created.headers.get("location")).toMatch(new RegExp(`^${prefix}/v2/patients/\\d+$`));
        const followed = await fetch(`${host.url}${created.headers.get("location")}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(followed.status).toBe(200);
        expect(created.headers.get("x-ratelimit-limit")).toBe("100000");
        const body = await created.json();
        const read = await json("GET", `/apis/v1/patient/${body.id}`, undefined, { "x-request-id": "host-suite-1" });
        expect(read.status).toBe(200);
        expect(read.headers.get("x-request-id")).toBe("host-suite-1");
        expect(await read.json()).toMatchObject({
          code: 2000,
          data: { patient_id: Number(body.id), first_name: "Host" },
        });
      });

      it("keeps error statuses and shapes: 401, 404, 405 with Allow", async () => {
        const anonymous = await fetch(`${base()}/v2/patients`);
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="openpractice"');
        expect((await anonymous.json()).error.code).toBe("UNAUTHORIZED");
        const missing = await json("GET", "/apis/v1/patient/999");
        expect(missing.status).toBe(404);
        expect((await missing.json()).code).toBe(4040);
        const wrongMethod = await json("DELETE", "/v2/patients");
        expect(wrongMethod.status).toBe(405);
        expect(wrongMethod.headers.get("allow")).toBe("GET, HEAD, POST");
      });

      it("answers HEAD on a GET route as GET without the body", async () => {
        const health = await fetch(`${base()}/healthz`, { method: "HEAD" });
        expect(health.status).toBe(200);
        expect(health.headers.get("content-type")).toContain("application/json");
        expect(await health.text()).toBe("");
        const list = await fetch(`${base()}/v2/patients`, {
          method: "HEAD",
          headers: { authorization: `Bearer ${token}` },
        });
        expect(list.status).toBe(200);
        expect(list.headers.get("x-ratelimit-limit")).not.toBeNull();
        expect(await list.text()).toBe("");
        const anonymous = await fetch(`${base()}/v2/patients`, { method: "HEAD" });
        expect(anonymous.status).toBe(401);
        expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="openpractice"');
        expect(await anonymous.text()).toBe("");
      });

      it("answers 20 KB and 40 KB tokens with 401 in the contract's shape, not Node's bare 431", async () => {
        const reasons = new Map([
          [20_000, "token is too large (at most 16384 characters)"],
          [40_000, "request headers exceed 32768 bytes (a token may have at most 16384 characters)"],
        ]);
        for (const [size, reason] of reasons) {
          const big = `${token}${"x".repeat(size)}`;
          const v2 = await fetch(`${base()}/v2/patients`, { headers: { authorization: `Bearer ${big}` } });
          expect(v2.status, `${size}`).toBe(401);
          expect(v2.headers.get("www-authenticate")).toBe(
            `Bearer realm="openpractice", error="invalid_token", error_description="${reason}"`,
          );
          expect((await v2.json()).error).toEqual({
            code: "UNAUTHORIZED",
            message: "Authentication required",
            details: { reason },
          });
          const v1 = await fetch(`${base()}/apis/v1/patient/1`, { headers: { authorization: `Bearer ${big}` } });
          expect(v1.status, `${size}`).toBe(401);
          expect(await v1.json()).toEqual({
            code: 4010,
            data: null,
            message: "Authentication required",
            error_code: "UNAUTHORIZED",
            details: { reason },
          });
        }
        expect((await json("GET", "/v2/patients")).status).toBe(200);
      });

      it("serves the OpenAPI document with the mount path as its server", async () => {
        const doc = await (await fetch(`${base()}/openapi.json`)).json();
        expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([prefix || "/"]);
      });

      it("answers malformed JSON with 400 MALFORMED_JSON", async () => {
        const res = await json("POST", "/v2/patients", '{"first_name":');
        expect(res.status).toBe(400);
        expect((await res.json()).error.code).toBe("MALFORMED_JSON");
      });

      it("enforces the 1 MiB body limit, declared or chunked", async () => {
        const big = JSON.stringify({ first_name: "x".repeat(1024 * 1024 + 10) });
        expect((await json("POST", "/v2/patients", big)).status).toBe(413);
        const url = new URL(`${base()}/v2/patients`);
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(
            {
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: "POST",
              headers: {
                authorization: `Bearer ${token}`,
                "content-type": "application/json",
                "transfer-encoding": "chunked",
              },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on("error", reject);
          for (let i = 0; i < 20; i++) req.write("x".repeat(64 * 1024));
          req.end();
        });
        expect(status).toBe(413);
        // The refused upload must not poison the next request (no reset keep-alive socket).
        expect((await json("GET", "/v2/patients")).status).toBe(200);
      });

      it.each([
        ["/v2/patients", "v2", "chunked"],
        ["/apis/v1/patient", "v1", "chunked"],
        ["/v2/patients", "v2", "declared"],
      ])(
        "reads back a 413 in the contract's shape while still sending a 3 MiB body to %s (%s, %s length)",
        async (path, contract, framing) => {
          const url = new URL(`${base()}${path}`);
          // A raw socket that, like many clients, sends its whole body before it reads the reply (paced, so it is
          // still sending when the reply is written): the reply must be there to read, not lost to a reset.
          const reply = await new Promise<string>((resolve) => {
            const socket = connect(Number(url.port), url.hostname);
            let received = "";
            socket.setEncoding("utf8");
            socket.pause();
            socket.on("data", (text) => (received += text));
            socket.on("error", () => resolve(received)); // EPIPE / ECONNRESET: whatever was read before it counts
            socket.on("close", () => resolve(received));
            socket.write(
              `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n${framing === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${48 * 64 * 1024}`}\r\nX-Request-Id: chunked-413\r\n\r\n`,
            );
            const chunk = "x".repeat(64 * 1024);
            let sent = 0;
            const next = () => {
              if (socket.destroyed) return;
              if (sent++ === 48)
                return void socket.end(framing === "chunked" ? "0\r\n\r\n" : "", () => socket.resume());
              socket.write(framing === "chunked" ? `${chunk.length.toString(16)}\r\n${chunk}\r\n` : chunk, () =>
                setTimeout(next, 2),
              );
            };
            next();
          });
          expect(reply).toMatch(/^HTTP\/1\.1 413 /);
          expect(reply.toLowerCase()).toContain("x-request-id: chunked-413");
          const body = JSON.parse(httpBody(reply));
          if (contract === "v2")
            expect(body).toMatchObject({
              error: { code: "PAYLOAD_TOO_LARGE", details: { limit_bytes: 1024 * 1024 } },
              meta: { request_id: "chunked-413" },
            });
          else expect(body).toMatchObject({ code: 4130, data: null, error_code: "PAYLOAD_TOO_LARGE" });
        },
      );

      it("streams a 3 MiB response body intact", async () => {
        const res = await fetch(`${base()}/docs/assets/swagger-ui-bundle.js`);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("text/javascript");
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(BIG_ASSET))).toBe(true);
      });

      it("serves a SOAP note's PDF summary download byte for byte, with its headers", async () => {
        const now = new Date("2031-01-01T00:00:00Z");
        await storage.repositories.organisations.ensure({ id: 1, name: "o", plan: "free", now });
        const patientId = (
          await storage.repositories.patients.insertIfAbsent(
            toPatientRecord(
              patientFromDraft({ firstName: "Pdf", lastName: "Host", dateOfBirth: "1990-01-01" }, 1, now),
            ),
          )
        ).patient.id;
        const contextId = `host-pdf-${prefix.length}`;
        await storage.repositories.soapNotes.insert({
          contextId,
          organisationId: 1,
          clinicId: 1,
          patientId,
          serviceCaseId: null,
          caseTitle: null,
          appointmentId: null,
          type: "FOLLOWUP_SOAP",
          category: null,
          serviceDateTime: now,
          entryDateTime: now,
          status: "COMPLETED",
          completed: true,
          completedAt: now,
          renderingPhysician: 1,
          supervisingPhysician: null,
          submissionIds: { Subjective: "s", Objective: "o", Assessment: "a", Plan: "p" },
          treatmentSheetId: 0,
          planOfCareId: null,
          submitForBilling: false,
          billingStatus: "NOT_SUBMITTED",
          summaryDocUrl: null,
          shortSummaryUrl: null,
          soapWithoutAppointment: true,
          parent: null,
          dataCarryForwardFrom: null,
          createdAt: now,
          updatedAt: now,
        });
        const pdf = await new PdfLibSummaryRenderer().render(
          {
            organisationName: "o",
            clinicName: null,
            contextId,
            noteType: "FOLLOWUP_SOAP",
            patient: { id: patientId, name: "Pdf Host", dateOfBirth: null },
            caseTitle: null,
            serviceDateTime: "2031-01-01 00:00 (UTC)",
            completedAt: null,
            renderingPhysician: "user 1",
            supervisingPhysician: null,
            sections: [{ title: "Subjective", lines: Array.from({ length: 400 }, (_, i) => `Line ${i}`) }],
            diagnoses: [],
            treatments: [],
            billingRule: "none",
            signatures: [],
            contentHash: null,
          },
          "full",
        );
        await storage.repositories.soapDocuments.put({
          organisationId: 1,
          contextId,
          variant: "full",
          contentType: "application/pdf",
          content: pdf,
          createdAt: now,
        });
        const res = await fetch(`${base()}/apis/v1/soap-context/${contextId}/summary.pdf`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toBe("application/pdf");
        expect(res.headers.get("content-length")).toBe(String(pdf.byteLength));
        expect(res.headers.get("cache-control")).toBe("private, no-store");
        expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
      });
    });
  }
}
