import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { createMysqlStorage, type MysqlStorageOptions } from "@openpractice/mysql";
import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";

// Several statements in one text (mysql2's multipleStatements) would let SQL ever built by splicing input chain
// statements of its own, so the adapter's pool allows them only when asked (the option or ?multipleStatements=true);
// only then do a transaction's statements ride together (adapters/mysql/src/pipelined-transactions.ts).
describe.skipIf(!availableEngines().includes("mysql"))("[mysql] statement batching", () => {
  let url: string;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, drop } = await freshDatabase("mysql"));
  });
  afterAll(() => drop());

  /** What a store opened with `options` does with a two-statement text, and with a held statement that fails. */
  async function behaviour(options: MysqlStorageOptions) {
    const storage = await createMysqlStorage({ ...options, migrate: false });
    try {
      const twoStatements = await storage.db.executeQuery(CompiledQuery.raw("select 1 as a; select 2 as b")).then(
        () => "accepted",
        (error: { code?: string }) => error.code,
      );
      // A statement marked to ride with the next fails (no such table): batched, its error comes with the whole
      // text it rode in, the next statement included; alone, with its own.
      const failed: { sql?: string } = await storage.db
        .transaction()
        .execute(async (trx) => {
          await trx.executeQuery(
            CompiledQuery.raw(`${SENT_WITH_NEXT_STATEMENT}insert into batching_missing values (?)`, [1]),
          );
          await trx.executeQuery(CompiledQuery.raw("select ? as rode_along", [2]));
        })
        .then(
          () => ({}),
          (error: { sql?: string }) => error,
        );
      return { twoStatements, heldRodeAlong: String(failed.sql).includes("rode_along") };
    } finally {
      await storage.close();
    }
  }

  it("is off by default: a two-statement text is refused and each statement goes alone", async () => {
    expect(await behaviour({ url })).toEqual({ twoStatements: "ER_PARSE_ERROR", heldRodeAlong: false });
    expect(await behaviour({ url: `${url}?multipleStatements=false` })).toEqual({
      twoStatements: "ER_PARSE_ERROR",
      heldRodeAlong: false,
    });
  });

  it("is on with ?multipleStatements=true or the option: the held statement rides with the next", async () => {
    const on = { twoStatements: "accepted", heldRodeAlong: true };
    expect(await behaviour({ url: `${url}?multipleStatements=true` })).toEqual(on);
    expect(await behaviour({ url, multipleStatements: true })).toEqual(on);
    // The option is the embedder's word over the URL's.
    expect(await behaviour({ url: `${url}?multipleStatements=true`, multipleStatements: false })).toEqual({
      twoStatements: "ER_PARSE_ERROR",
      heldRodeAlong: false,
    });
  });
});
