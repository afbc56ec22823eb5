import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateSigningKey, type StoredSigningKey } from "@openpractice/http";
import { ConfigError } from "./config.js";

const FILE = "token-signing-keys.json";

function readKeys(file: string): StoredSigningKey[] {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { keys?: StoredSigningKey[] };
  const keys = parsed.keys ?? [];
  if (keys.length === 0 || !keys.every((k) => k.kid && k.privateJwk?.d && k.createdAt))
    throw new ConfigError(`${file}: holds no valid signing keys; delete it to generate a new one`);
  return keys;
}

/** Writes the file whole (owner-only) and renames it into place, so a reader never sees half of it. */
function writeKeys(dataDir: string, keys: StoredSigningKey[], exclusive: boolean) {
  const file = join(dataDir, FILE);
  if (mkdirSync(dataDir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dataDir, 0o700);
  const body = `${JSON.stringify({ keys }, null, 2)}\n`;
  if (exclusive) return writeFileSync(file, body, { flag: "wx", mode: 0o600 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, body, { mode: 0o600 });
  renameSync(temporary, file);
}

/**
 * The ES256 keys the token endpoint signs with, kept in `<dataDir>/token-signing-keys.json` (0600): generated on
 * first use; the newest signs, older ones stay published at /.well-known/jwks.json so their tokens still verify.
 */
export async function resolveSigningKeys(
  dataDir: string,
): Promise<{ keys: StoredSigningKey[]; source: "file" | "generated" }> {
  const file = join(dataDir, FILE);
  try {
    return { keys: readKeys(file), source: "file" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    writeKeys(dataDir, [await generateSigningKey()], true);
    return { keys: readKeys(file), source: "generated" };
  } catch (error) {
    // Another process generated it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return { keys: readKeys(file), source: "file" };
  }
}

/**
 * `openpractice keys rotate`: a new key signs from the next start; the previous ones stay published until every
 * token they signed has expired (`retainSeconds`, the longest accepted token lifetime), then they are dropped.
 */
export async function rotateSigningKeys(
  dataDir: string,
  retainSeconds: number,
  now = new Date(),
): Promise<{ signing: string; kept: string[]; dropped: string[] }> {
  const { keys } = await resolveSigningKeys(dataDir);
  const fresh = await generateSigningKey(now);
  const byAge = [...keys].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  // A key stopped signing when the next newer one was created; it is needed until retainSeconds after that.
  const kept: StoredSigningKey[] = [];
  const dropped: string[] = [];
  byAge.forEach((key, i) => {
    const retiredAt = i === 0 ? now : new Date((byAge[i - 1] as StoredSigningKey).createdAt);
    if (now.getTime() - retiredAt.getTime() <= retainSeconds * 1000) kept.push(key);
    else dropped.push(key.kid);
  });
  writeKeys(dataDir, [fresh, ...kept], false);
  return { signing: fresh.kid, kept: kept.map((k) => k.kid), dropped };
}
