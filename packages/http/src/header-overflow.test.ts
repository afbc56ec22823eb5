import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearerChallenge } from "./auth/bearer-challenge.js";
import { headerOverflowListener } from "./header-overflow.js";

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer({ maxHeaderSize: 4096 }, (_req, res) => res.end("reached"));
  server.on(
    "clientError",
    headerOverflowListener({ maxHeaderBytes: 4096, prefix: "/emr", now: () => new Date("2031-01-02T03:04:05Z") }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** Sends raw bytes on a fresh connection and returns everything the server answers before closing. */
function raw(request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

const oversized = (path: string) =>
  `GET ${path} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${"a".repeat(6000)}\r\n\r\n`;

describe("headerOverflowListener", () => {
  it("answers headers over the limit with the v2 401 behind the mount path", async () => {
    const answer = await raw(oversized("/emr/v2/patients?page=2"));
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(head).toContain("connection: close");
    const reason = "request headers exceed 4096 bytes (a token may have at most 16384 characters)";
    expect(JSON.parse(body!)).toEqual({
      error: { code: "UNAUTHORIZED", message: "Authentication required", details: { reason } },
      meta: { timestamp: "2031-01-02T03:04:05.000Z", request_id: expect.stringMatching(/^req_[0-9a-f-]{36}$/) },
    });
  });

  it("uses the v1 envelope for other paths", async () => {
    const body = (await raw(oversized("/apis/v1/patient/1"))).split("\r\n\r\n")[1]!;
    expect(JSON.parse(body)).toMatchObject({ code: 4010, data: null, error_code: "UNAUTHORIZED" });
  });

  it("keeps Node's answer to a malformed request", async () => {
    expect(await raw("NOT HTTP AT ALL\r\n\r\n")).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
});

describe("bearerChallenge", () => {
  it("keeps quotes and backslashes out of error_description (RFC 6750 section 3)", () => {
    expect(bearerChallenge({ code: "invalid_token", description: 'say "hi" \\ now\n' })).toBe(
      'Bearer realm="openpractice", error="invalid_token", error_description="say hi  now"',
    );
  });
});
