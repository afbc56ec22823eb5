import { randomBytes } from "node:crypto";
import type { RuntimeConfig } from "./config.js";
import { readOrCreateSecretFile } from "./data-secret.js";

/**
 * The HS256 secret: OPENPRACTICE_JWT_SECRET when set, otherwise the one in
 * `<dataDir>/jwt-secret`, generated (256 random bits) on first use.
 */
export function resolveJwtSecret(
  configured: string | undefined,
  dataDir: string,
): { secret: string; source: "environment" | "file" | "generated" } {
  if (configured) return { secret: configured, source: "environment" };
  const { value, created, file } = readOrCreateSecretFile(dataDir, "jwt-secret", () => randomBytes(32).toString("hex"));
  if (value.length < 32)
    throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  return { secret: value, source: created ? "generated" : "file" };
}

/**
 * The HS256 secret the runtime accepts and `token` signs with. With an
 * identity provider (OPENPRACTICE_JWKS_URL) and no OPENPRACTICE_JWT_SECRET
 * there is none: HS256 is off and no secret file is read or generated, so a
 * leftover file is not a second way in.
 */
export function resolveHs256Secret(
  config: Pick<RuntimeConfig, "jwtSecret" | "jwksUrl" | "dataDir">,
): ReturnType<typeof resolveJwtSecret> | undefined {
  if (config.jwksUrl && !config.jwtSecret) return undefined;
  return resolveJwtSecret(config.jwtSecret, config.dataDir);
}
