import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readOrCreateSecretFile } from "./data-secret.js";

/** An age X25519 identity as `age-keygen` writes it (Bech32, upper case). */
export const AGE_IDENTITY_PATTERN = /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/;

/** age-encryption, loaded when a backup key is needed (about 100 ms that `serve` and the other commands skip). */
const age = () => import("age-encryption");

/** The key file's name in the data directory. */
export const BACKUP_KEY_FILE = "backup-key";

export interface BackupKey {
  /** The age identity (`AGE-SECRET-KEY-1…`): decrypts, and its recipient encrypts. */
  identity: string;
  /** The identity's public half (`age1…`), which encrypted backups are written to. */
  recipient: string;
  /** Where it came from: the variable's name, or the key file's path. */
  source: string;
  created: boolean;
}

/** The identity line of an `age-keygen` style file (comment lines start with `#`). */
function identityInFile(file: string, text: string): string {
  const lines = text.split("\n").map((l) => l.trim());
  const identity = lines.find((l) => l !== "" && !l.startsWith("#"));
  if (!identity || !AGE_IDENTITY_PATTERN.test(identity))
    throw new Error(
      `${file} must hold an age identity (AGE-SECRET-KEY-1…, as age-keygen writes it); restore it from where you keep it (without it encrypted backups cannot be read)`,
    );
  return identity;
}

/**
 * The age key of encrypted backups, for `backup --encrypt`: OPENPRACTICE_BACKUP_KEY when set, else
 * `<dataDir>/backup-key`, generated on first use in age-keygen's format (so `age -d -i` reads it too).
 */
export async function resolveBackupKey(configured: string | undefined, dataDir: string): Promise<BackupKey> {
  const { generateX25519Identity, identityToRecipient } = await age();
  if (configured)
    return {
      identity: configured,
      recipient: await identityToRecipient(configured),
      source: "OPENPRACTICE_BACKUP_KEY",
      created: false,
    };
  const fresh = await generateX25519Identity();
  const freshRecipient = await identityToRecipient(fresh);
  const { value, created, file } = readOrCreateSecretFile(
    dataDir,
    BACKUP_KEY_FILE,
    () => `# created: ${new Date().toISOString().replace(/\.\d{3}Z$/, "Z")}\n# public key: ${freshRecipient}\n${fresh}`,
  );
  const identity = identityInFile(file, value);
  return { identity, recipient: await identityToRecipient(identity), source: file, created };
}

/**
 * The key that reads an encrypted backup, for `restore`: like resolveBackupKey, but never generated (a new key
 * reads no existing backup); undefined when there is none.
 */
export async function existingBackupKey(
  configured: string | undefined,
  dataDir: string,
): Promise<BackupKey | undefined> {
  const file = join(dataDir, BACKUP_KEY_FILE);
  if (!configured && !existsSync(file)) return undefined;
  if (configured) return resolveBackupKey(configured, dataDir);
  const identity = identityInFile(file, readFileSync(file, "utf8"));
  const { identityToRecipient } = await age();
  return { identity, recipient: await identityToRecipient(identity), source: file, created: false };
}
