import { DomainError } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { IcdServiceRepositories } from "./icd-service-repositories.js";
import { icdWords, parseIcdOrderLine, type IcdCode10 } from "./icd-code.js";

const CODE_LIKE = /^[A-Za-z][0-9][0-9A-Za-z]?(\.?[0-9A-Za-z]{0,4})?$/;

/** Words too common to narrow a search ("fracture of femur" searches fracture and femur). */
const STOP_WORDS = new Set(["a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"]);

/** The query's words without stop words (unless it has nothing else), at most 8. */
function searchWords(q: string): string[] {
  const words = icdWords(q);
  const useful = words.filter((w) => !STOP_WORDS.has(w));
  return (useful.length ? useful : words).slice(0, 8);
}

export interface IcdSearchQuery {
  q: string;
  speciality?: string | undefined;
  rev?: string | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** The ICD-10-CM code set: import of the CMS order file, and search by code or by words. */
export class IcdService {
  constructor(private readonly deps: { storage: Storage<IcdServiceRepositories> }) {}

  /**
   * Loads a CMS order file's lines as the code set of `year`, replacing that
   * year's set (idempotent). Every line is parsed before anything is written,
   * so a bad line changes nothing; the error names its line number.
   */
  async importOrderFile(
    lines: string[],
    year: number,
    options: { onProgress?: ((done: number, total: number) => void | Promise<void>) | undefined } = {},
  ): Promise<{ year: number; codes: number; billable: number }> {
    if (!Number.isInteger(year) || year < 2000 || year > 2100)
      throw new Error(`year must be a 4-digit code set year, got ${year}`);
    const codes: IcdCode10[] = [];
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        codes.push(parseIcdOrderLine(line, year));
      } catch (error) {
        throw new Error(`line ${i + 1}: ${(error as Error).message}`);
      }
    });
    if (codes.length === 0) throw new Error("the file has no code lines");
    await this.deps.storage.repositories.icd.replaceYear(year, codes, options.onProgress);
    return { year, codes: codes.length, billable: codes.filter((c) => c.billable).length };
  }

  /**
   * The codes of the newest loaded code set among `codes` (dotted or not, any case), keyed by the code as sent;
   * `year` is null when no code set is loaded.
   */
  async findCodes(codes: readonly string[]): Promise<{ year: number | null; found: Map<string, IcdCode10> }> {
    const icd = this.deps.storage.repositories.icd;
    const year = await icd.latestYear();
    if (year === undefined) return { year: null, found: new Map() };
    const bare = (sent: string) => sent.replace(".", "").toUpperCase();
    const byCode = new Map((await icd.findCodes(year, [...new Set(codes.map(bare))])).map((c) => [c.code, c]));
    const found = new Map<string, IcdCode10>();
    for (const sent of codes) {
      const hit = byCode.get(bare(sent));
      if (hit) found.set(sent, hit);
    }
    return { year, found };
  }

  async search(
    query: IcdSearchQuery,
  ): Promise<{ codes: IcdCode10[]; total: number; page: number; size: number; year: number | null }> {
    if (query.rev !== undefined && query.rev.toUpperCase() !== "ICD10") {
      throw DomainError.invalidParameter("rev", query.rev, "only ICD10 is available");
    }
    const q = query.q.trim();
    if (q.length === 0 || q.length > 100)
      throw DomainError.invalidParameter("q", query.q, "must be 1 to 100 characters");
    const { page, size, limit, offset } = toPageWindow(query.page, query.size);
    const year = await this.deps.storage.repositories.icd.latestYear();
    if (year === undefined) return { codes: [], total: 0, page, size, year: null };
    const codeLike = CODE_LIKE.test(q);
    const found = await this.deps.storage.repositories.icd.search({
      year,
      codePrefix: codeLike ? q.replace(".", "").toUpperCase() : undefined,
      words: codeLike ? [] : searchWords(q),
      limit,
      offset,
    });
    return { ...found, page, size, year };
  }
}
