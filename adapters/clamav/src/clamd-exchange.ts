import { createConnection, type Socket } from "node:net";
import { type ClamdAddress, describeAddress } from "./clamd-address.js";
import { ClamdError } from "./clamd-error.js";

/** A reply is one line (a verdict, PONG, a version); anything longer is not clamd. */
const MAX_REPLY_BYTES = 64 * 1024;

/** Sends what follows the command (INSTREAM's chunks); stops once `stop` is aborted. */
export type AfterCommand = (socket: Socket, stop: AbortSignal) => Promise<void>;

/**
 * One command on a new connection: connects, sends `command` with the `z` prefix's NUL terminator, runs `after`
 * (if any) and resolves with clamd's reply, the text before its NUL. The whole exchange, connecting included, is
 * bounded by `timeoutMs`.
 *
 * clamd may answer before it has read everything (the size limit) and close the connection; the reply decides
 * then, and the writing stops. A connection that fails or closes before a reply rejects with a ClamdError naming
 * the address; an error of `after` itself (the document's source failed) rejects with that error.
 */
export function exchange(
  address: ClamdAddress,
  timeoutMs: number,
  command: string,
  after?: AfterCommand,
): Promise<string> {
  const where = describeAddress(address);
  return new Promise<string>((resolve, reject) => {
    const stop = new AbortController();
    const socket =
      "socketPath" in address
        ? createConnection({ path: address.socketPath })
        : createConnection({ host: address.host, port: address.port });
    const received: Buffer[] = [];
    let receivedBytes = 0;
    let connected = false;
    let settled = false;
    const settle = (outcome: { reply: string } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop.abort();
      socket.destroy();
      if ("reply" in outcome) resolve(outcome.reply);
      else reject(outcome.error);
    };
    const fail = (code: ConstructorParameters<typeof ClamdError>[0], message: string, cause?: unknown) =>
      settle({ error: new ClamdError(code, message, cause === undefined ? undefined : { cause }) });

    const timer = setTimeout(
      () =>
        fail(
          "timeout",
          connected
            ? `clamd at ${where} gave no answer within ${timeoutMs} ms`
            : `clamd at ${where} could not be reached within ${timeoutMs} ms`,
        ),
      timeoutMs,
    );

    socket.on("data", (chunk: Buffer) => {
      received.push(chunk);
      receivedBytes += chunk.length;
      const end = chunk.indexOf(0);
      if (end !== -1)
        settle({
          reply: Buffer.concat(received)
            .subarray(0, receivedBytes - chunk.length + end)
            .toString(),
        });
      else if (receivedBytes > MAX_REPLY_BYTES)
        fail("unexpected_reply", `clamd at ${where} answered more than ${MAX_REPLY_BYTES} bytes without an end`);
    });
    // Without a NUL the reply ends with the connection (a clamd answering a command without the z prefix's
    // terminator); nothing at all is a closed connection.
    socket.on("end", () => {
      if (receivedBytes > 0) settle({ reply: Buffer.concat(received).toString().trimEnd() });
      else fail("closed", closedEarly(where, command));
    });
    socket.on("close", () => fail("closed", closedEarly(where, command)));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!connected) fail("unreachable", `clamd at ${where} could not be reached: ${error.message}`, error);
      else fail("closed", `${closedEarly(where, command)}: ${error.message}`, error);
    });
    socket.once("connect", () => {
      connected = true;
      socket.write(`${command}\0`);
      after?.(socket, stop.signal).catch((error: unknown) => {
        // Once the exchange is over, a write that failed with it says nothing new.
        if (!stop.signal.aborted) settle({ error });
      });
    });
  });
}

/** clamd closes a stream it will not take (over StreamMaxLength) and may be gone before its reply is read. */
function closedEarly(where: string, command: string): string {
  const hint = command === "zINSTREAM" ? " (it does so when a document exceeds its StreamMaxLength)" : "";
  return `clamd at ${where} closed the connection before answering${hint}`;
}
