/** A mistake in the command line: printed with the usage text, exit status 64. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
