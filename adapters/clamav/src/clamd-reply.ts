import type { ScanVerdict } from "@openpractice/core";
import { ClamdError } from "./clamd-error.js";

// clamd's answer to INSTREAM once the terminating NUL is cut off: `stream: OK`, `stream: <signature> FOUND`, or
// `<reason> ERROR`. The size limit's reason is fixed text in clamd (its StreamMaxLength).
const FOUND = /^stream: (.+) FOUND$/;
const ERROR = /^(.*) ERROR$/;
const SIZE_LIMIT = "INSTREAM size limit exceeded.";
/** clamd waited for the next chunk longer than its ReadTimeout (a slow source). */
const READ_TIMED_OUT = "COMMAND READ TIMED OUT";

/** The verdict in clamd's reply to INSTREAM; throws ClamdError for an error or an answer it does not know. */
export function verdictOf(reply: string, where: string): ScanVerdict {
  if (reply === "stream: OK") return { infected: false };
  const found = FOUND.exec(reply);
  if (found?.[1]) return { infected: true, signature: found[1] };
  const error = ERROR.exec(reply);
  if (error?.[1] === SIZE_LIMIT)
    throw new ClamdError(
      "size_limit",
      `clamd at ${where} refused the document: "${SIZE_LIMIT}" (the document is larger than its StreamMaxLength)`,
    );
  if (reply === READ_TIMED_OUT)
    throw new ClamdError("timeout", `clamd at ${where} stopped waiting for the document: "${reply}" (its ReadTimeout)`);
  if (error) throw new ClamdError("error_reply", `clamd at ${where} answered an error: "${error[1]}"`);
  throw new ClamdError("unexpected_reply", `clamd at ${where} answered "${reply}", which is no scan result`);
}
