import { describe, expect, it } from "vitest";
import type { ExportedResource } from "./bulk-export-resources.js";
import { type SliceTally, sliceLines } from "./bulk-export-slice.js";

async function* items(ids: number[]): AsyncGenerator<ExportedResource> {
  for (const [i, id] of ids.entries()) yield { id, resource: { resourceType: "Condition", id: `${id}-${i}` } };
}

async function slice(ids: number[], room: number) {
  const tally: SliceTally = { count: 0, bytes: 0, lastId: 0, exhausted: false };
  const chunks: Buffer[] = [];
  for await (const c of sliceLines(items(ids)[Symbol.asyncIterator](), room, tally)) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8");
  return { tally, lines: text.trimEnd().split("\n"), bytes: Buffer.byteLength(text) };
}

describe("a bulk export slice", () => {
  it("stops at the room, but only between records: a record's resources stay in one file", async () => {
    const { tally, lines, bytes } = await slice([1, 1, 2, 2, 2, 3, 4], 3);
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(["1-0", "1-1", "2-2", "2-3", "2-4"]);
    expect(tally).toEqual({ count: 5, bytes, lastId: 2, exhausted: false });
  });

  it("knows when the type is exhausted, and writes nothing of an empty one", async () => {
    expect((await slice([1, 2], 2)).tally).toMatchObject({ count: 2, lastId: 2, exhausted: true });
    expect((await slice([1, 2], 5)).tally).toMatchObject({ count: 2, exhausted: true });
    const empty = await slice([], 5);
    expect(empty.tally).toEqual({ count: 0, bytes: 0, lastId: 0, exhausted: true });
  });
});
