import { Socket } from "node:net";

/**
 * A TCP socket for pg's `stream` option (`new pg.Pool({ pipeline: true, stream: coalescingSocket })`) that sends
 * everything written to it in one turn of the event loop with one system call. In pipeline mode pg writes each
 * query as it is issued, each with its own Sync; a transaction's statements issued together (BEGIN, the insert, the
 * appends, COMMIT) would otherwise leave in four TCP segments, each read and answered by the server on its own.
 * Only Node's public Writable API is used (cork, uncork): pg's own per-query cork nests inside this one.
 */
export function coalescingSocket(): Socket {
  const socket = new Socket();
  const write = (...args: unknown[]) => (Socket.prototype.write as (...a: unknown[]) => boolean).apply(socket, args);
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const coalescing = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return write(...args);
  }) as typeof socket.write;
  // Node sets the socket's own `write` back to Writable's once connected: installed then, before pg's listener.
  socket.once("connect", () => {
    socket.write = coalescing;
  });
  return socket;
}
