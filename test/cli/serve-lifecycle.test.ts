import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

let serve: ServeProcess | undefined;
let temp: ReturnType<typeof makeTempDir> | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null) serve.child.kill("SIGKILL");
  temp?.remove();
});

describe("openpractice serve", () => {
  it("applies migrations on start, logs JSON without patient data, and reports ready", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0" }, temp.dir);
    expect((await fetch(`${serve.url}/readyz`)).status).toBe(200);
    const token = runCli(["token", "--org", "5", "--user", "7"], {}, temp.dir).stdout.trim();
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    await fetch(`${serve.url}/apis/v1/patient`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        first_name: "Secretname",
        last_name: "Hiddenfamily",
        date_of_birth: "1970-01-01",
        email_address: "leak@example.org",
      }),
    });
    await fetch(`${serve.url}/v2/patients?search=Secretname`, { headers });
    await new Promise((r) => setTimeout(r, 100));
    const lines = serve.logs();
    const requestLines = lines.filter((l) => l.msg === "request");
    expect(requestLines.map((l) => [l.method, l.route, l.status])).toEqual(
      expect.arrayContaining([
        ["POST", "/apis/v1/patient", 200],
        ["GET", "/v2/patients", 200],
      ]),
    );
    expect(requestLines.find((l) => l.route === "/apis/v1/patient")).toMatchObject({
      level: 30,
      request_id: expect.any(String),
      duration_ms: expect.any(Number),
      organisation_id: 5,
    });
    const all = JSON.stringify(lines);
    for (const secret of ["Secretname", "Hiddenfamily", "leak@example.org", token]) expect(all).not.toContain(secret);
  });

  it("on SIGTERM stops accepting, finishes the in-flight request, closes the database and exits 0", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0" }, temp.dir);
    const token = runCli(["token", "--org", "1", "--user", "101"], {}, temp.dir).stdout.trim();
    const url = new URL(`${serve.url}/apis/v1/patient`);

    // A request whose body is still arriving when the signal comes.
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.write('{"first_name":"Slow","last_name":"Upload",');
      setTimeout(() => {
        serve!.child.kill("SIGTERM");
        setTimeout(() => req.end('"date_of_birth":"1980-01-01"}'), 400);
      }, 200);
    });

    await new Promise((r) => setTimeout(r, 350)); // after SIGTERM, before the body finishes
    await expect(fetch(`${serve.url}/healthz`)).rejects.toThrow();

    const done = await inFlight;
    expect(done.status).toBe(200);
    expect(JSON.parse(done.body)).toMatchObject({ code: 2000, data: { first_name: "Slow" } });
    expect(await serve.exited).toBe(0);
    expect(serve.logs().map((l) => l.msg)).toEqual(expect.arrayContaining(["signal received", "shutdown complete"]));
  });
});
