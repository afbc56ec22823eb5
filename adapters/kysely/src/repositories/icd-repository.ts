import { icdWords, type IcdCode10, type IcdRepository, type IcdSearch } from "@openpractice/core";
import { sql, type Kysely, type Selectable } from "kysely";
import type { Database, IcdCodesTable } from "../schema.js";
import { slices } from "../batches.js";

const toCode = (r: Selectable<IcdCodesTable>): IcdCode10 => ({
  year: Number(r.year),
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

  constructor(private readonly db: Kysely<Database>) {}

  async replaceYear(year: number, codes: IcdCode10[]) {
    // The caller may already be in a transaction; otherwise this is one.
    const write = async (db: Kysely<Database>) => {
      await db.deleteFrom("icd_words").where("year", "=", year).execute();
      await db.deleteFrom("icd_codes").where("year", "=", year).execute();
      for (const batch of slices(codes, 500)) {
        await db
          .insertInto("icd_codes")
          .values(
            batch.map((c) => ({
              year,
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
            year,
            word: word.slice(0, 60),
            code: c.code,
            description_length: c.longDescription.length,
          })),
        );
        for (const wordBatch of slices(words, 1000)) await db.insertInto("icd_words").values(wordBatch).execute();
      }
    };
    if (this.db.isTransaction) await write(this.db);
    else await this.db.transaction().execute(write);
    this.rarity.clear();
  }

  async latestYear() {
    const row = await this.db
      .selectFrom("icd_codes")
      .select((eb) => eb.fn.max("year").as("year"))
      .executeTakeFirst();
    return row?.year == null ? undefined : Number(row.year);
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

  async search(s: IcdSearch) {
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
