import { closeSync, fchmodSync, mkdirSync, openSync, rmSync } from "node:fs";

/**
 * Creates an empty file only its owner may read or write (0600 whatever the umask; 0600 also where the umask would
 * have taken the owner's write bit), replacing a leftover of an earlier run. A copy of the database is patient
 * records: SQLite would create it 0644 minus the umask, and its journal with the file's mode.
 */
export function createOwnerOnlyFile(file: string): void {
  rmSync(file, { force: true });
  const fd = openSync(file, "wx", 0o600);
  try {
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

/** A folder only its owner may enter, created with its parents when missing (an existing one is left as it is). */
export function ensureOwnerOnlyFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
}
