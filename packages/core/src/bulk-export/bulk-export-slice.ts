import type { ExportedResource } from "./bulk-export-resources.js";

const NEWLINE = Buffer.from("\n");

/** What a slice wrote: its resources, bytes, the last record id written, and whether the type has no more. */
export interface SliceTally {
  count: number;
  bytes: number;
  lastId: number;
  exhausted: boolean;
}

/**
 * The NDJSON lines of one slice: resources from `resources` until at least `room` are written, stopping only
 * between records (a note's several Conditions share its id and go in one file, since the cursor moves past whole
 * records). `tally` is filled as the lines are pulled; the iterator is closed when the slice stops early.
 */
export async function* sliceLines(
  resources: AsyncIterator<ExportedResource>,
  room: number,
  tally: SliceTally,
): AsyncGenerator<Buffer> {
  let next = await resources.next();
  while (!next.done) {
    if (tally.count >= room && next.value.id !== tally.lastId) break;
    const line = Buffer.from(JSON.stringify(next.value.resource));
    tally.count++;
    tally.bytes += line.length + 1;
    tally.lastId = next.value.id;
    yield line;
    yield NEWLINE;
    next = await resources.next();
  }
  tally.exhausted = next.done === true;
  if (!tally.exhausted) await resources.return?.(undefined);
}
