import { mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import {
  checkPattern,
  describeDocumentStoreConformance,
  patternStream,
  randomDocumentKey,
} from "@openpractice/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSystemDocumentStore } from "./file-system-document-store.js";

const temporaryDirectory = () => mkdtemp(join(os.tmpdir(), "openpractice-files-"));

describeDocumentStoreConformance("filesystem", async () => {
  const directory = await temporaryDirectory();
  return {
    store: new FileSystemDocumentStore({ directory: join(directory, "documents") }),
    cleanup: () => rm(directory, { recursive: true, force: true }),
  };
});

describe("FileSystemDocumentStore on disk", () => {
  let directory: string;
  let root: string;
  let store: FileSystemDocumentStore;
  beforeEach(async () => {
    directory = await temporaryDirectory();
    root = join(directory, "documents");
    store = new FileSystemDocumentStore({ directory: root });
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("puts and gets 20 MiB", async () => {
    const key = randomDocumentKey();
    const size = 20 * 1024 * 1024 + 3;
    let started = performance.now();
    await expect(store.put(key, patternStream({ size, seed: 20 }))).resolves.toEqual({ size });
    const putMs = performance.now() - started;
    started = performance.now();
    expect(await checkPattern(await store.get(key), 20)).toMatchObject({ size, firstMismatch: null });
    console.info(`filesystem: 20 MiB put ${putMs.toFixed(0)} ms, get ${(performance.now() - started).toFixed(0)} ms`);
  });

  it("shards objects by the key's first two characters", async () => {
    const key = `ab${randomDocumentKey()}`;
    await store.put(key, patternStream({ size: 10, seed: 1 }));
    expect(await readdir(join(root, "ab"))).toEqual([key]);
  });

  it("makes files 0600 and directories 0700 even under a permissive umask", async () => {
    const previous = process.umask(0o000);
    try {
      await store.put("xyKey", patternStream({ size: 10, seed: 1 }));
    } finally {
      process.umask(previous);
    }
    const mode = async (path: string) => (await stat(path)).mode & 0o777;
    expect(await mode(root)).toBe(0o700);
    expect(await mode(join(root, "xy"))).toBe(0o700);
    expect(await mode(join(root, "xy", "xyKey"))).toBe(0o600);
  });

  it("removes its partial file when the stream fails", async () => {
    const key = randomDocumentKey();
    const failing = patternStream({ size: 1_000_000, seed: 1, failAfter: { bytes: 300_000, error: new Error("cut") } });
    await expect(store.put(key, failing)).rejects.toThrow("cut");
    expect(await readdir(join(root, key.slice(0, 2)))).toEqual([]);
  });

  it("list skips .partial files and removes those older than an hour", async () => {
    await store.put("pqKept", patternStream({ size: 10, seed: 1 }));
    const fresh = join(root, "pq", "pqFresh.0123456789ab.partial");
    const abandoned = join(root, "pq", "pqOld.0123456789ab.partial");
    await writeFile(fresh, "half");
    await writeFile(abandoned, "half");
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(abandoned, twoHoursAgo, twoHoursAgo);

    const listed = [];
    for await (const object of store.list()) listed.push(object.key);
    expect(listed).toEqual(["pqKept"]);
    expect((await readdir(join(root, "pq"))).sort()).toEqual(["pqFresh.0123456789ab.partial", "pqKept"]);
  });

  it("list ignores files and directories it did not make", async () => {
    await store.put("mnKey", patternStream({ size: 10, seed: 1 }));
    await writeFile(join(root, "README"), "not an object");
    await writeFile(join(root, "mn", "notes.txt"), "not an object");
    await writeFile(join(root, "mn", "zzWrongShard"), "not in its shard");
    const listed = [];
    for await (const object of store.list()) listed.push(object.key);
    expect(listed).toEqual(["mnKey"]);
  });

  it("lists nothing before the directory exists", async () => {
    const listed = [];
    for await (const object of new FileSystemDocumentStore({ directory: join(directory, "absent") }).list())
      listed.push(object);
    expect(listed).toEqual([]);
  });

  it("refuses keys outside the port's pattern, so no key can leave the directory", async () => {
    for (const key of ["", "../etc", "a/b", "a.partial", ".", "x".repeat(65), "a\0b"]) {
      await expect(store.put(key, patternStream({ size: 1, seed: 1 }))).rejects.toThrow(TypeError);
      await expect(store.get(key)).rejects.toThrow(TypeError);
      await expect(store.delete(key)).rejects.toThrow(TypeError);
    }
  });

  it("refuses a range that is not one", async () => {
    await store.put("rgKey", patternStream({ size: 10, seed: 1 }));
    await expect(store.get("rgKey", { start: 5, end: 4 })).rejects.toThrow(RangeError);
    await expect(store.get("rgKey", { start: -1, end: 4 })).rejects.toThrow(RangeError);
  });
});
