import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A secret kept in `<dataDir>/<name>`: created with `generate()` (owner-only
 * file) on first use, read afterwards. `wx` makes two processes starting
 * together agree on one value.
 */
export function readOrCreateSecretFile(
  dataDir: string,
  name: string,
  generate: () => string,
): { value: string; created: boolean; file: string } {
  const file = join(dataDir, name);
  // Owner-only whatever the umask: the folder holds the keys and, by default, the patient database.
  if (mkdirSync(dataDir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dataDir, 0o700);
  try {
    writeFileSync(file, `${generate()}\n`, { flag: "wx", mode: 0o600 });
    return { value: readFileSync(file, "utf8").trim(), created: true, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return { value: readFileSync(file, "utf8").trim(), created: false, file };
}
