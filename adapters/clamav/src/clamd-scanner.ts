import type { ByteStream, MalwareScanner, ScanVerdict } from "@openpractice/core";
import { type ClamdAddress, describeAddress } from "./clamd-address.js";
import { ClamdError } from "./clamd-error.js";
import { exchange } from "./clamd-exchange.js";
import { verdictOf } from "./clamd-reply.js";
import { writeInstream } from "./instream.js";

/** Long enough for clamd to scan a large PDF on a busy machine; a health check passes a shorter one. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export type ClamdScannerOptions = ClamdAddress & {
  /** Bounds each exchange, connecting included: a whole scan, a ping. DEFAULT_TIMEOUT_MS by default. */
  readonly timeoutMs?: number;
};

/**
 * Core's MalwareScanner over clamd's INSTREAM, on TCP (`{ host, port }`) or a Unix socket (`{ socketPath }`): one
 * connection per scan, the document streamed as it is read. Rejects with a ClamdError when clamd gives no verdict.
 */
export class ClamdScanner implements MalwareScanner {
  readonly name = "clamav";
  readonly #address: ClamdAddress;
  readonly #timeoutMs: number;

  constructor(options: ClamdScannerOptions) {
    this.#address =
      "socketPath" in options ? { socketPath: options.socketPath } : { host: options.host, port: options.port };
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  async scan(content: ByteStream): Promise<ScanVerdict> {
    const reply = await exchange(this.#address, this.#timeoutMs, "zINSTREAM", (socket, stop) =>
      writeInstream(socket, content, stop),
    );
    return verdictOf(reply, describeAddress(this.#address));
  }

  /** Resolves when clamd answers PING with PONG: the health check. */
  async ping(options: { timeoutMs?: number } = {}): Promise<void> {
    const reply = await exchange(this.#address, options.timeoutMs ?? this.#timeoutMs, "zPING");
    if (reply !== "PONG")
      throw new ClamdError(
        "unexpected_reply",
        `clamd at ${describeAddress(this.#address)} answered PING with "${reply}"`,
      );
  }

  /** clamd's VERSION: `ClamAV 1.4.6/<database version>/<its date>`, or `ClamAV 1.4.6` with no official database. */
  version(options: { timeoutMs?: number } = {}): Promise<string> {
    return exchange(this.#address, options.timeoutMs ?? this.#timeoutMs, "zVERSION");
  }
}
