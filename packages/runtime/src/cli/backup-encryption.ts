import { closeSync, createReadStream, createWriteStream, openSync, readSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** The first line of every age file (age-encryption.org/v1): how restore tells an encrypted backup from a plain one. */
const AGE_HEADER = Buffer.from("age-encryption.org/v1\n");

export function isAgeFile(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const start = Buffer.alloc(AGE_HEADER.length);
    return readSync(fd, start, 0, start.length, 0) === start.length && start.equals(AGE_HEADER);
  } finally {
    closeSync(fd);
  }
}

const readable = (file: string) => Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;

/** Writes the stream into `file` (already created owner-only: "w" keeps its mode), flushed to disk before it resolves. */
const writeInto = (file: string, stream: ReadableStream<Uint8Array>) =>
  pipeline(Readable.fromWeb(stream as never), createWriteStream(file, { flags: "w", flush: true }));

/**
 * Encrypts `plain` into `target` in the age format for the recipient (`age1…`), as a stream: age's 64 KiB chunks,
 * each authenticated, so a database of gigabytes never sits in memory whole.
 */
export async function encryptFile(plain: string, target: string, recipient: string): Promise<void> {
  const { Encrypter } = await import("age-encryption");
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  await writeInto(target, await encrypter.encrypt(readable(plain)));
}

/**
 * Decrypts the age file `source` into `target` with the identity (`AGE-SECRET-KEY-1…`), as a stream. Throws on a
 * wrong key, and on a chunk that was changed or a file cut short (age authenticates each chunk and marks the last).
 */
export async function decryptFile(source: string, target: string, identity: string): Promise<void> {
  const { Decrypter } = await import("age-encryption");
  const decrypter = new Decrypter();
  decrypter.addIdentity(identity);
  await writeInto(target, await decrypter.decrypt(readable(source)));
}
