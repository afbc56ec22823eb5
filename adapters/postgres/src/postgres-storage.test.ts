import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPostgresStorage } from "./postgres-storage.js";

describe("createPostgresStorage on a pool the host passes", () => {
  it("guards the pool's checked-out clients once, however many storages are built on it", async () => {
    // No server is reached: without migrations, building a storage opens no connection.
    const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" });
    const before = pool.listenerCount("acquire");
    for (let i = 0; i < 12; i++) await createPostgresStorage({ pool, migrate: false });
    expect(pool.listenerCount("acquire")).toBe(before + 1);
    await pool.end();
  });
});
