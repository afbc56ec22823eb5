import { readFileSync } from "node:fs";
import type { Clearinghouse } from "@openpractice/x12";
import { ConfigError } from "./config-error.js";

const NAME = "OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES";
const REQUIRED = [
  "url",
  "username",
  "password",
  "submitter_id",
  "receiver_id",
  "provider_npi",
  "provider_name",
] as const;

/**
 * Each organisation's clearinghouse for real-time eligibility, from a JSON object of organisation id → settings
 * (url, username, password, submitter_id, receiver_id, provider_npi, provider_name; optional timeout_ms, ca_file,
 * usage P or T). Absent: no organisation has one.
 */
export function parseClearinghouses(raw: string | undefined): ReadonlyMap<number, Clearinghouse> {
  const out = new Map<number, Clearinghouse>();
  if (raw === undefined || raw.trim() === "") return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`${NAME}: must be a JSON object of organisation id → clearinghouse settings`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ConfigError(`${NAME}: must be a JSON object of organisation id → clearinghouse settings`);
  for (const [key, value] of Object.entries(parsed as Record<string, Record<string, unknown>>)) {
    const orgId = Number(key);
    if (!Number.isInteger(orgId) || orgId < 1) throw new ConfigError(`${NAME}: '${key}' is not an organisation id`);
    const missing = REQUIRED.filter((f) => typeof value?.[f] !== "string" || (value[f] as string) === "");
    if (missing.length > 0) throw new ConfigError(`${NAME}: organisation ${key} lacks ${missing.join(", ")}`);
    if (!String(value.url).startsWith("https://"))
      throw new ConfigError(`${NAME}: organisation ${key}'s url must be https://`);
    const timeout = value.timeout_ms;
    if (
      timeout !== undefined &&
      (!Number.isInteger(timeout) || (timeout as number) < 100 || (timeout as number) > 120_000)
    )
      throw new ConfigError(`${NAME}: organisation ${key}'s timeout_ms must be an integer from 100 to 120000`);
    if (value.usage !== undefined && value.usage !== "P" && value.usage !== "T")
      throw new ConfigError(`${NAME}: organisation ${key}'s usage must be P or T`);
    let ca: string | undefined;
    if (value.ca_file !== undefined) {
      try {
        ca = readFileSync(String(value.ca_file), "utf8");
      } catch (error) {
        throw new ConfigError(`${NAME}: organisation ${key}'s ca_file cannot be read: ${(error as Error).message}`);
      }
    }
    out.set(orgId, {
      url: String(value.url),
      username: String(value.username),
      password: String(value.password),
      submitterId: String(value.submitter_id),
      receiverId: String(value.receiver_id),
      providerNpi: String(value.provider_npi),
      providerName: String(value.provider_name),
      ...(timeout === undefined ? {} : { timeoutMs: timeout as number }),
      ...(ca === undefined ? {} : { ca }),
      ...(value.usage === undefined ? {} : { usage: value.usage as "P" | "T" }),
    });
  }
  return out;
}
