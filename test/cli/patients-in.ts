import BetterSqlite3 from "better-sqlite3";

/** How many patients a SQLite database file holds, read directly (not through the runtime under test). */
export function patientsIn(file: string): number {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return Number((db.prepare("select count(*) as n from patients").get() as { n: number }).n);
  } finally {
    db.close();
  }
}
