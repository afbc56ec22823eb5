/**
 * What background work logs through: the subset of pino's API it uses, so a
 * host passes its pino (or any object with these methods) unchanged.
 */
export interface WorkerLogger {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * The default when the host passes no logger: warnings and errors as one JSON
 * line each on stderr, so a failing background task is never silent.
 */
export const stderrWarnings: WorkerLogger = Object.freeze({
  debug: () => undefined,
  info: () => undefined,
  warn: (fields: object, message: string) => writeLine("warn", fields, message),
  error: (fields: object, message: string) => writeLine("error", fields, message),
});

function writeLine(level: string, fields: object, message: string): void {
  process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), ...fields, msg: message })}\n`);
}
