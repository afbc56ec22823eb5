/** A start-up configuration problem: one line naming the variable and what is wrong. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
