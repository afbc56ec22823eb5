import { pino, type Logger } from "pino";
import type { RuntimeConfig } from "./config/config.js";

/**
 * Structured JSON logs on stdout. Request logs carry route patterns, status,
 * timing and ids only: never bodies, query strings (a search is a patient's
 * name) or tokens. The redact list is a second line of defence.
 */
export function createLogger(level: RuntimeConfig["logLevel"], destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: "openpractice" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ["authorization", "headers.authorization", "token", "body", "query", "secret"],
        censor: "[redacted]",
      },
    },
    destination as never,
  );
}

export type { Logger };
