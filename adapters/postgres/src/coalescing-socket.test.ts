import { createServer, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { coalescingSocket } from "./coalescing-socket.js";

describe("coalescingSocket", () => {
  it("holds what one turn of the event loop writes and sends it together at the end of the turn", async () => {
    let received = "";
    const server = createServer((peer) => peer.on("data", (chunk) => (received += chunk)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const socket: Socket = coalescingSocket();
    try {
      const port = (server.address() as { port: number }).port;
      await new Promise<void>((resolve) => socket.connect(port, "127.0.0.1", resolve));
      for (const part of ["Parse", "Bind", "Execute", "Sync"]) socket.write(part);
      // Nothing left yet: all of it waits in the socket's buffer.
      expect([socket.writableCorked, socket.writableLength]).toEqual([1, "ParseBindExecuteSync".length]);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(socket.writableCorked).toBe(0);
      await expect.poll(() => received).toBe("ParseBindExecuteSync");
      // The next turn's writes are held the same way.
      socket.write("Next");
      expect(socket.writableLength).toBe(4);
      await expect.poll(() => received).toBe("ParseBindExecuteSyncNext");
    } finally {
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
