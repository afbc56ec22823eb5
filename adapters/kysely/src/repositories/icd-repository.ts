import { icdWords, type IcdCode10, type IcdRepository, type IcdSearch } from "@openpractice/core";
import { sql, type Kysely, type Selectable } from "kysely";
import type { Database } from "../schema.js";
import type { IcdCodesTable } from "../tables/icd.js";
import { slices } from "../batches.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/** Rows are stored under a key: year*10 + generation (imports since migration 025), or the year itself (older ones). */
const yearOfKey = (key: number) => (key > 9999 ? Math.floor(key / 10) : key);

const toCode = (r: Selectable<IcdCodesTable>): IcdCode10 => ({
  year: yearOfKey(Number(r.year)),
  orderNumber: Number(r.order_number),
  code: r.code,
  billable: Boolean(Number(r.billable)),
  shortDescription: r.short_description,
  longDescription: r.long_description,
});

/** The smallest string above every string that starts with `prefix` (for a B-tree range scan instead of LIKE). */
const prefixEnd = (prefix: string) =>
  prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);

/** Word-range sizes remembered per year and word prefix; at most this many before the memory starts over. */
const RARITY_CACHE_SIZE = 20_000;

export class KyselyIcdRepository implements IcdRepository {
  /**
   * How many codes each word prefix matches (capped), per year. A code set
   * never changes once imported, and a stale entry (another process re-imported
   * the year) could only pick a slower driving word, never change a result.
   */
  private readonly rarity = new Map<string, number>();
  /** Each year's storage key as last read from icd_years (latestYear reads it on every search). */
  private readonly keys = new Map<number, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: Pick<SqlDialectProfile, "singleWriter">,
  ) {}

  /** Runs one batch of bulk work in its own transaction; on a single-writer engine, then leaves as long a gap. */
  private async batch(work: (trx: Kysely<Database>) => Promise<void>) {
    const started = performance.now();
    await this.db.transaction().execute(work);
    if (this.profile.singleWriter) {
      const took = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, Math.min(Math.max(took, 5), 100)));
    }
  }

  /**
   * Loads the year's codes under a fresh storage key in batches of 500 codes, each batch its own transaction, so
   * API writes interleave with an import (SQLite has one writer); searches keep reading the year's previous key (or
   * the previous year) until one small transaction switches icd_years to the new key; the old key's rows are then
   * deleted in batches. A crash midway leaves rows under an unused key, which the next import of the year clears.
   */
  async replaceYear(
    year: number,
    codes: IcdCode10[],
    onProgress?: (done: number, total: number) => void | Promise<void>,
  ) {
    const current = await this.db.selectFrom("icd_years").selectAll().where("year", "=", year).executeTakeFirst();
    const previousKey = current ? Number(current.storage_key) : undefined;
    // Generation keys year*10 + 0..9, never the live one; keys of old imports (the year itself) are left alone.
    const generation = previousKey !== undefined && previousKey > 9999 ? ((previousKey % 10) + 1) % 10 : 0;
    const key = year * 10 + generation;
    await this.deleteKey(key);
    let done = 0;
    for (const batch of slices(codes, 500)) {
      await this.batch(async (trx) => {
        await trx
          .insertInto("icd_codes")
          .values(
            batch.map((c) => ({
              year: key,
              code: c.code,
              order_number: c.orderNumber,
              billable: c.billable ? 1 : 0,
              short_description: c.shortDescription,
              long_description: c.longDescription,
              description_length: c.longDescription.length,
            })),
          )
          .execute();
        const words = batch.flatMap((c) =>
          icdWords(c.longDescription).map((word) => ({
            year: key,
            word: word.slice(0, 60),
            code: c.code,
            description_length: c.longDescription.length,
          })),
        );
        for (const wordBatch of slices(words, 1000)) await trx.insertInto("icd_words").values(wordBatch).execute();
      });
      done += batch.length;
      await onProgress?.(done, codes.length);
    }
    // The switch: searches read the new key from here on.
    const row = { storage_key: key, codes: codes.length, updated_at: new Date().toISOString() };
    const switched = await this.db.updateTable("icd_years").set(row).where("year", "=", year).executeTakeFirst();
    if (Number(switched.numUpdatedRows) === 0)
      await this.db
        .insertInto("icd_years")
        .values({ year, ...row })
        .execute();
    this.keys.set(year, key);
    if (previousKey !== undefined && previousKey !== key) await this.deleteKey(previousKey);
  }

  /** Deletes every row stored under `key`, 1,000 codes (and their words) per statement. */
  private async deleteKey(key: number) {
    for (;;) {
      const batch = (
        await this.db.selectFrom("icd_codes").select("code").where("year", "=", key).limit(1000).execute()
      ).map((r) => r.code);
      if (batch.length === 0) break;
      await this.batch(async (trx) => {
        await trx.deleteFrom("icd_words").where("year", "=", key).where("code", "in", batch).execute();
        await trx.deleteFrom("icd_codes").where("year", "=", key).where("code", "in", batch).execute();
      });
    }
    // Words whose code row was never written (a crash between the statements of a batch cannot leave any, but a
    // hand-edited table could): one last sweep.
    await this.db.deleteFrom("icd_words").where("year", "=", key).execute();
  }

  async latestYear() {
    const row = await this.db
      .selectFrom("icd_years")
      .select(["year", "storage_key"])
      .orderBy("year", "desc")
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    this.keys.set(Number(row.year), Number(row.storage_key));
    return Number(row.year);
  }

  /** Where the year's rows are stored: its current key (read with latestYear, or now). */
  async findCodes(year: number, codes: readonly string[]) {
    if (codes.length === 0) return [];
    const key = await this.keyOf(year);
    const rows = await this.db
      .selectFrom("icd_codes")
      .selectAll()
      .where("year", "=", key)
      .where("code", "in", [...codes])
      .execute();
    return rows.map(toCode);
  }

  private async keyOf(year: number): Promise<number> {
    const known = this.keys.get(year);
    if (known !== undefined) return known;
    const row = await this.db.selectFrom("icd_years").select("storage_key").where("year", "=", year).executeTakeFirst();
    return row ? Number(row.storage_key) : year;
  }

  private async rarestFirst(year: number, words: string[]): Promise<string[]> {
    if (words.length < 2) return words;
    const counts = await Promise.all(
      words.map(async (word) => {
        const key = `${year}|${word}`;
        let n = this.rarity.get(key);
        if (n === undefined) {
          const inRange = this.db
            .selectFrom("icd_words")
            .select("code")
            .where("year", "=", year)
            .where("word", ">=", word)
            .where("word", "<", prefixEnd(word))
            .limit(5001);
          n = Number(
            (
              await this.db
                .selectFrom(inRange.as("m"))
                .select((eb) => eb.fn.countAll().as("n"))
                .executeTakeFirstOrThrow()
            ).n,
          );
          if (this.rarity.size >= RARITY_CACHE_SIZE) this.rarity.clear();
          this.rarity.set(key, n);
        }
        return { word, n };
      }),
    );
    return counts.sort((a, b) => a.n - b.n || b.word.length - a.word.length).map((c) => c.word);
  }

  /** For EXISTS: a word of the code at `codeRef` starts with `word` (an index probe on (year, code, word)). */
  private hasWordStarting(year: number, word: string, codeRef: "icd_codes.code" | "m.code") {
    return this.db
      .selectFrom("icd_words as w")
      .select("w.code")
      .where("w.year", "=", year)
      .where("w.code", "=", sql.ref<string>(codeRef))
      .where("w.word", ">=", word)
      .where("w.word", "<", prefixEnd(word));
  }

  async search(search: IcdSearch) {
    // The rows of the year live under its current storage key; every query below reads that key.
    const s = { ...search, year: await this.keyOf(search.year) };
    let q = this.db.selectFrom("icd_codes").where("year", "=", s.year);
    if (s.codePrefix) {
      q = q.where("code", ">=", s.codePrefix).where("code", "<", prefixEnd(s.codePrefix));
    }
    // Each word must start a word of the description.
    if (!s.codePrefix && s.words.length === 0) return { codes: [], total: 0 };
    if (s.codePrefix) {
      for (const word of s.words)
        q = q.where(({ exists }) => exists(this.hasWordStarting(s.year, word, "icd_codes.code")));
      const ordered = q.selectAll().orderBy(sql`case when code = ${s.codePrefix} then 0 else 1 end`).orderBy("code");
      const [rows, counted] = await Promise.all([
        ordered.limit(s.limit).offset(s.offset).execute(),
        q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { codes: rows.map(toCode), total: Number(counted.n) };
    }
    // Word search: the rarest word (by a capped count of its index range) drives the query through the covering index (year, word, description_length,
    // code), so each match comes with its ranking key from the index alone; each other word is an index probe on
    // (year, code, word). Matches are ranked here, then only the page's codes are read.
    const [first, ...rest] = await this.rarestFirst(s.year, s.words);
    let m = this.db
      .selectFrom("icd_words as m")
      .select(["m.code", "m.description_length"])
      .where("m.year", "=", s.year)
      .where("m.word", ">=", first!)
      .where("m.word", "<", prefixEnd(first!));
    for (const word of rest) {
      m = m.where(({ exists }) => exists(this.hasWordStarting(s.year, word, "m.code")));
    }
    // A prefix can match two words of one description ("femur", "femurs"): each code once.
    const seen = new Set<string>();
    const matches = (await m.execute()).filter((r) => !seen.has(r.code) && seen.add(r.code));
    matches.sort(
      (a, b) =>
        Number(a.description_length) - Number(b.description_length) || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
    );
    const pageCodes = matches.slice(s.offset, s.offset + s.limit).map((r) => r.code);
    if (pageCodes.length === 0) return { codes: [], total: matches.length };
    const rows = await this.db
      .selectFrom("icd_codes")
      .selectAll()
      .where("year", "=", s.year)
      .where("code", "in", pageCodes)
      .execute();
    const byCode = new Map(rows.map((r) => [r.code, toCode(r)]));
    return { codes: pageCodes.map((c) => byCode.get(c)!), total: matches.length };
  }
}
