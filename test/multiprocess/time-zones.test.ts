import { afterAll, describe, expect, it } from "vitest";
import { runCli, startServe, type ServeProcess } from "../cli/cli-process.js";
import { availableEngines, freshDatabase } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";

// Timestamps are stored as UTC text, so neither the process's nor the database session's time zone may move them.
for (const engine of availableEngines()) {
  describe(`[${engine}] timestamps under a non-UTC time zone`, () => {
    const temp = makeTempDir();
    let serve: ServeProcess | undefined;
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      if (serve && serve.child.exitCode === null) {
        serve.child.kill("SIGTERM");
        await serve.exited;
      }
      await drop?.();
      temp.remove();
    });

    it("v1 zoneless and v2 UTC times are the same instant, in UTC, with TZ=Pacific/Chatham (+13:45)", async () => {
      const db = await freshDatabase(engine);
      drop = db.drop;
      // PostgreSQL: also give the session a far-off zone.
      const url =
        engine === "postgres" ? `${db.url}?options=${encodeURIComponent("-c TimeZone=America/St_Johns")}` : db.url;
      const env = {
        PORT: "0",
        DATABASE_URL: url,
        TZ: "Pacific/Chatham",
        OPENPRACTICE_JWT_SECRET: "time-zone-secret-0123456789-abcdefghij",
      };
      serve = await startServe(env, temp.dir);
      const token = runCli(["token", "--org", "1", "--user", "101"], env, temp.dir).stdout.trim();
      const before = Date.now();
      const created = await (
        await fetch(`${serve.url}/apis/v1/patient`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ first_name: "Zone", last_name: "Test", date_of_birth: "1980-01-01" }),
        })
      ).json();
      const v1 = created.data.created_at as string;
      const v2 = (
        await (
          await fetch(`${serve.url}/v2/patients/${created.data.patient_id}`, {
            headers: { authorization: `Bearer ${token}` },
          })
        ).json()
      ).created_at as string;
      expect(v1).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
      expect(v2).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(v2.slice(0, 19)).toBe(v1);
      expect(Math.abs(Date.parse(v2) - before)).toBeLessThan(10_000);
      expect(Math.abs(Date.parse(`${v1}Z`) - before)).toBeLessThan(10_000);
    }, 60_000);
  });
}
