import { describe, expect, it } from "vitest";
import { sqliteFilenameFromUrl } from "./sqlite-storage.js";

describe("sqlite URLs", () => {
  it.each([
    ["sqlite:./data/openpractice.db", "./data/openpractice.db"],
    ["sqlite:data/x.db", "data/x.db"],
    ["sqlite://data/x.db", "data/x.db"],
    ["sqlite:/srv/x.db", "/srv/x.db"],
    ["sqlite:///srv/x.db", "/srv/x.db"],
    ["sqlite::memory:", ":memory:"],
  ])("%s is the file %s", (url, file) => {
    expect(sqliteFilenameFromUrl(url)).toBe(file);
  });
});
