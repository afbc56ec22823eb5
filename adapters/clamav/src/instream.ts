import { once } from "node:events";
import type { Writable } from "node:stream";
import type { ByteStream } from "@openpractice/core";

/**
 * The largest chunk sent in one frame. The protocol allows any length up to StreamMaxLength; a large chunk from
 * the source is sent as views of it (no copy), so what waits in the socket's buffer stays small.
 */
const MAX_FRAME_BYTES = 1 << 20;

/**
 * Writes `content` as INSTREAM's chunks (each a 4-byte big-endian length, then the bytes) and the zero-length
 * chunk that ends the stream. It waits for `drain` whenever the socket's buffer is full, so a document is never
 * held whole in memory: the source is read only as fast as clamd takes it. Stops quietly, without the end chunk,
 * once `stop` is aborted (clamd answered early, e.g. the size limit, or the exchange timed out); leaving the loop
 * early ends the source's iteration (a Node stream is destroyed).
 */
export async function writeInstream(socket: Writable, content: ByteStream, stop: AbortSignal): Promise<void> {
  for await (const chunk of content) {
    // A zero-length chunk from the source is skipped: as a frame it would end the stream early.
    for (let offset = 0; offset < chunk.byteLength; offset += MAX_FRAME_BYTES) {
      if (stop.aborted) return;
      const frame = chunk.subarray(offset, offset + MAX_FRAME_BYTES);
      const length = Buffer.allocUnsafe(4);
      length.writeUInt32BE(frame.byteLength);
      socket.write(length);
      if (!socket.write(frame)) await drained(socket, stop);
    }
  }
  if (!stop.aborted) socket.write(Buffer.alloc(4));
}

async function drained(socket: Writable, stop: AbortSignal): Promise<void> {
  try {
    await once(socket, "drain", { signal: stop });
  } catch (error) {
    // Aborted: the exchange is over and says why. A socket error ends it the same way.
    if (!stop.aborted) throw error;
  }
}
