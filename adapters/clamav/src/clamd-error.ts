/**
 * Why clamd gave no verdict. Every one means "try again later" to the scan job (the document stays pending_scan);
 * the code tells an operator where to look.
 * - `unreachable`: no connection (clamd is down, the address or socket path is wrong).
 * - `timeout`: connecting and scanning took longer than the scanner's timeout, or clamd waited longer than its
 *   ReadTimeout for the document.
 * - `closed`: clamd closed the connection without an answer.
 * - `size_limit`: the document is larger than clamd's StreamMaxLength.
 * - `error_reply`: clamd answered an error (`... ERROR`).
 * - `unexpected_reply`: an answer this client does not know.
 */
export type ClamdErrorCode = "unreachable" | "timeout" | "closed" | "size_limit" | "error_reply" | "unexpected_reply";

export class ClamdError extends Error {
  override readonly name = "ClamdError";
  constructor(
    readonly code: ClamdErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
