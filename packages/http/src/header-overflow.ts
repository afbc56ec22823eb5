import { DomainError } from "@openpractice/core";
import { bearerChallenge } from "./auth/bearer-challenge.js";
import { MAX_TOKEN_LENGTH } from "./auth/jwt-authenticator.js";
import { v1Error } from "./contracts/v1-contract.js";
import { v2Error } from "./contracts/v2-contract.js";
import { fhirError } from "./contracts/fhir-contract.js";
import { contractOfPath } from "./contracts/path-contract.js";
import { V1_ERROR_MAP, V2_STATUS_MAP } from "./http-modules.js";

/**
 * The header limit to give Node's server (`http.createServer({ maxHeaderSize })`):
 * room for a token of MAX_TOKEN_LENGTH characters next to the usual headers
 * (Node's default of 16 KiB is not).
 */
export const RECOMMENDED_MAX_HEADER_BYTES = 32 * 1024;

/** What a node:http `clientError` listener receives, typed by shape so this package stays free of node imports. */
export interface ClientErrorLike {
  code?: string;
  /** The bytes being parsed when the error occurred; for a header overflow usually the start of the request. */
  rawPacket?: Uint8Array;
}

export interface ClientSocketLike {
  readonly writable: boolean;
  readonly writableEnded: boolean;
  /** Node's response in progress on the socket, if any (what Node's own handler checks before answering). */
  readonly _httpMessage?: unknown;
  write(data: string): unknown;
  end(data?: string): unknown;
  destroy(error?: Error): unknown;
  once(event: "finish", listener: () => void): unknown;
}

export interface HeaderOverflowOptions {
  /** The server's maxHeaderSize, named in the reason; default RECOMMENDED_MAX_HEADER_BYTES. */
  maxHeaderBytes?: number;
  /** The path the API is mounted under ("" for the root), so v2 paths are recognised behind it. */
  prefix?: string;
  now?: () => Date;
}

/** Node's own answers to the other client errors (lib/_http_server.js), which a clientError listener replaces. */
const NODE_DEFAULT_ANSWERS: Record<string, string> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
};
const BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/** The request path from the start of a raw HTTP/1 request, or null when the packet does not begin with a request line. */
function requestPath(raw: Uint8Array | undefined): string | null {
  if (!raw) return null;
  const start = new TextDecoder("latin1").decode(raw.subarray(0, 8192));
  return /^[A-Z]+ (\/\S*) HTTP\/1\.[01]\r?\n/.exec(start)?.[1]?.split("?")[0] ?? null;
}

/** The 401 in the contract of `path` (v1 when the path is unknown), as raw HTTP/1.1 that closes the connection. */
async function overflowAnswer(path: string | null, o: Required<HeaderOverflowOptions>): Promise<string> {
  const reason = `request headers exceed ${o.maxHeaderBytes} bytes (a token may have at most ${MAX_TOKEN_LENGTH} characters)`;
  const error = new DomainError("UNAUTHORIZED", "Authentication required", { reason });
  const requestId = `req_${crypto.randomUUID()}`;
  const headers = {
    "www-authenticate": bearerChallenge({ code: "invalid_token", description: reason }),
    "x-request-id": requestId,
    // As the handler's errors (security-headers.ts): the answer is not stored, nor read as another type.
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    connection: "close",
  };
  const local = path !== null && o.prefix && path.startsWith(o.prefix) ? path.slice(o.prefix.length) || "/" : path;
  const contract = local === null ? "v1" : contractOfPath(local);
  const response =
    contract === "v2"
      ? v2Error(error, V2_STATUS_MAP[error.code], { requestId, now: o.now() }, undefined, headers)
      : contract === "fhir"
        ? fhirError(error, V2_STATUS_MAP[error.code], undefined, headers)
        : v1Error(error, V1_ERROR_MAP[error.code], undefined, headers);
  const body = await response.text();
  const lines = [
    `HTTP/1.1 ${response.status} Unauthorized`,
    ...[...response.headers].map(([name, value]) => `${name}: ${value}`),
    `content-length: ${new TextEncoder().encode(body).length}`,
  ];
  return `${lines.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * A node:http `clientError` listener: requests whose headers exceed the
 * server's maxHeaderSize (an oversized token, as a rule) get the contract's
 * 401 instead of Node's bare 431, v1 or v2 by the request path. Other client
 * errors get Node's usual answers.
 * `server.on("clientError", headerOverflowListener({ maxHeaderBytes }))`.
 */
export function headerOverflowListener(
  options: HeaderOverflowOptions = {},
): (error: ClientErrorLike, socket: ClientSocketLike) => void {
  const o: Required<HeaderOverflowOptions> = {
    maxHeaderBytes: options.maxHeaderBytes ?? RECOMMENDED_MAX_HEADER_BYTES,
    prefix: (options.prefix ?? "").replace(/\/+$/, ""),
    now: options.now ?? (() => new Date()),
  };
  return (error, socket) => {
    // Node keeps parsing what the client still sends after an answer: later errors of that socket are noise.
    if (socket.writableEnded) return;
    // A keep-alive socket may have carried earlier requests; only a response still being written forbids an answer.
    const canAnswer = socket.writable && !socket._httpMessage;
    if (error.code !== "HPE_HEADER_OVERFLOW" || !canAnswer) {
      if (canAnswer) socket.write(NODE_DEFAULT_ANSWERS[error.code ?? ""] ?? BAD_REQUEST);
      socket.destroy(error as Error);
      return;
    }
    overflowAnswer(requestPath(error.rawPacket), o).then(
      (answer) => {
        if (!socket.writable) return void socket.destroy();
        // end(), not destroy(): closing with the client's bytes unread would reset the connection before it reads the 401.
        // The client may keep sending, so the socket is closed a moment after the answer is out.
        socket.once("finish", () => setTimeout(() => socket.destroy(), 1000).unref());
        socket.end(answer);
      },
      () => socket.destroy(),
    );
  };
}
