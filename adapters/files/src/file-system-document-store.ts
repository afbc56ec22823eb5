import { type FileHandle, chmod, mkdir, open, readdir, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import {
  type ByteRange,
  type ByteStream,
  type DocumentStore,
  DocumentStoreMissingError,
  DOCUMENT_KEY_PATTERN,
  type StoredObject,
} from "@openpractice/core";
import { checkedKey, SHARD_PATTERN, shardOf } from "./document-key.js";
import { isPartialName, PARTIAL_MAX_AGE_MS, partialNameOf } from "./partial-files.js";

export interface FileSystemDocumentStoreOptions {
  /**
   * Where the objects live; created (mode 0700) when missing, its mode left alone when it exists. Each object is a
   * file `<directory>/<first two key characters>/<key>`.
   */
  directory: string;
  /** How old an abandoned `.partial` upload must be before `list()` removes it; default one hour. */
  partialMaxAgeMs?: number;
}

const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;

const hasCode = (error: unknown, ...codes: string[]): boolean =>
  codes.includes((error as NodeJS.ErrnoException | null)?.code ?? "");

/**
 * Core's DocumentStore port on a local (or mounted) file system. Files are 0600 and directories 0700 whatever the
 * umask: the content is sealed, but its size and timing are not for other users. A put writes a `.partial` file,
 * fsyncs it, renames it to the key and fsyncs the directory, so a crash leaves either the whole object or no object
 * under the key; a failed put removes its partial file, and `list()` removes those a crash left behind.
 */
export class FileSystemDocumentStore implements DocumentStore {
  readonly kind = "filesystem";
  readonly #directory: string;
  readonly #partialMaxAgeMs: number;
  #rootReady: Promise<void> | undefined;

  constructor(options: FileSystemDocumentStoreOptions) {
    if (!options?.directory) throw new TypeError("FileSystemDocumentStore needs a directory");
    this.#directory = options.directory;
    this.#partialMaxAgeMs = options.partialMaxAgeMs ?? PARTIAL_MAX_AGE_MS;
  }

  async put(key: string, content: ByteStream): Promise<{ size: number }> {
    checkedKey(key);
    const shard = await this.#shardDirectory(key);
    const partial = join(shard, partialNameOf(key));
    let size = 0;
    let handle: FileHandle | undefined;
    try {
      handle = await open(partial, "wx", FILE_MODE);
      await handle.chmod(FILE_MODE); // open's mode is reduced by the umask
      // Written chunk by chunk on the handle: each write is awaited before the next chunk is pulled (the stream's
      // pace, bounded memory), and the handle stays ours to fsync (a write stream on it would hold it until closed).
      for await (const chunk of content) {
        for (let written = 0; written < chunk.byteLength; )
          written += (await handle.write(chunk, written, chunk.byteLength - written)).bytesWritten;
        size += chunk.byteLength;
      }
      await handle.sync();
      await handle.close();
      handle = undefined;
      await rename(partial, join(shard, key));
    } catch (error) {
      await handle?.close().catch(() => {});
      await unlink(partial).catch(() => {});
      throw error;
    }
    await syncDirectory(shard);
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<ByteStream> {
    checkedKey(key);
    if (range) checkRange(range);
    let handle: FileHandle;
    try {
      // Opened before streaming, so a missing key rejects here and a delete after this point cannot cut the read.
      handle = await open(join(this.#directory, shardOf(key), key), "r");
    } catch (error) {
      if (hasCode(error, "ENOENT", "ENOTDIR")) throw new DocumentStoreMissingError(key);
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async delete(key: string): Promise<void> {
    checkedKey(key);
    try {
      await unlink(join(this.#directory, shardOf(key), key));
    } catch (error) {
      if (!hasCode(error, "ENOENT", "ENOTDIR")) throw error;
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    let shards: string[];
    try {
      shards = await readdir(this.#directory);
    } catch (error) {
      if (hasCode(error, "ENOENT")) return;
      throw error;
    }
    for (const shard of shards) {
      if (!SHARD_PATTERN.test(shard)) continue;
      let names: string[];
      try {
        names = await readdir(join(this.#directory, shard));
      } catch (error) {
        if (hasCode(error, "ENOENT", "ENOTDIR")) continue;
        throw error;
      }
      for (const name of names) {
        const path = join(this.#directory, shard, name);
        if (isPartialName(name)) {
          await this.#removeIfAbandoned(path);
          continue;
        }
        if (!DOCUMENT_KEY_PATTERN.test(name) || shardOf(name) !== shard) continue;
        const stats = await stat(path).catch((error: unknown) => {
          if (hasCode(error, "ENOENT")) return null; // deleted while listing
          throw error;
        });
        if (stats?.isFile()) yield { key: name, modifiedAt: stats.mtime };
      }
    }
  }

  async #removeIfAbandoned(path: string): Promise<void> {
    const stats = await stat(path).catch(() => null);
    if (stats && Date.now() - stats.mtimeMs > this.#partialMaxAgeMs) await unlink(path).catch(() => {});
  }

  /** The key's shard directory, made 0700 (with the root) if it is not there yet. */
  async #shardDirectory(key: string): Promise<string> {
    this.#rootReady ??= makeRoot(this.#directory).catch((error: unknown) => {
      this.#rootReady = undefined;
      throw error;
    });
    await this.#rootReady;
    const shard = join(this.#directory, shardOf(key));
    try {
      await mkdir(shard, DIRECTORY_MODE);
      await chmod(shard, DIRECTORY_MODE); // mkdir's mode is reduced by the umask
    } catch (error) {
      if (!hasCode(error, "EEXIST")) throw error;
    }
    return shard;
  }
}

async function makeRoot(directory: string): Promise<void> {
  const created = await mkdir(directory, { recursive: true, mode: DIRECTORY_MODE });
  if (created !== undefined) await chmod(directory, DIRECTORY_MODE);
}

/** Makes a rename durable: the directory entry is on disk before put resolves (not possible on Windows). */
async function syncDirectory(directory: string): Promise<void> {
  if (process.platform === "win32") return;
  const handle = await open(directory, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function checkRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
    throw new RangeError(`Not a byte range: ${start}-${end}`);
}
