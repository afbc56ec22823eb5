import { createPractice, DomainError, PLANS, type AuditEntry, type Plan, type Practice } from "@openpractice/core";
import { FIRST_CLIENT_SCOPES, v2ApiClientView, v2OrganisationView } from "@openpractice/http";
import { loadConfig } from "../config/config.js";
import { resolveRuntimeKeys } from "../config/practice-keys.js";
import { rotateSigningKeys } from "../config/signing-keys.js";
import { openStorage } from "../storage-from-url.js";
import { UsageError } from "./usage-error.js";

/** Runs `work` on a practice over the configured database, then closes it; domain errors become usage errors. */
async function withPractice<T>(work: (practice: Practice) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const storage = await openStorage(config.databaseUrl);
  try {
    return await work(createPractice({ storage, keys: resolveRuntimeKeys(config).keys }));
  } catch (error) {
    if (error instanceof DomainError) {
      const issues = (error.details.issues as Array<{ field: string; reason: string }> | undefined)
        ?.map((i) => `${i.field} ${i.reason}`)
        .join("; ");
      throw new UsageError(`${error.code}: ${issues ?? error.message}`);
    }
    throw error;
  } finally {
    await storage.close();
  }
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** The audit entry of a command run on the server's shell. */
const cliEntry = (action: string, id: number, fields: string[]): AuditEntry => ({
  actorUserId: null,
  actorName: "openpractice cli",
  clientId: null,
  action,
  resourceType: "organisation",
  resourceId: String(id),
  requestId: null,
  changedFields: fields.sort(),
});

function plan(raw: string | undefined): Plan | undefined {
  if (raw === undefined) return undefined;
  if (!PLANS.includes(raw as Plan)) throw new UsageError(`--plan must be one of ${PLANS.join(", ")} (got '${raw}')`);
  return raw as Plan;
}

function organisationId(raw: string | undefined): number {
  const id = Number(raw);
  if (!raw || !Number.isSafeInteger(id) || id <= 0)
    throw new UsageError(`give the organisation id (got '${raw ?? ""}')`);
  return id;
}

/**
 * `openpractice org create --name … [--plan free] [--timezone UTC]`: the organisation and its first API client
 * (scopes admin read write) as one JSON line; the client_secret appears only here.
 */
export function orgCreateCommand(flags: Record<string, string | undefined>): Promise<void> {
  if (!flags.name) throw new UsageError("org create needs --name");
  const name = flags.name;
  const chosenPlan = plan(flags.plan);
  return withPractice(async (practice) => {
    const org = await practice.organisationAdmin.create({ name, plan: chosenPlan, timeZone: flags.timezone });
    const { client, secret } = await practice.apiClients.createForOrganisation(org.id, {
      name: flags["client-name"] ?? "Administrator",
      scopes: FIRST_CLIENT_SCOPES,
    });
    await practice.audit.record(org.id, cliEntry("cli.org.create", org.id, ["name", "plan", "time_zone"]));
    print({
      organisation: v2OrganisationView(org),
      admin_client: { ...v2ApiClientView(client), client_secret: secret },
    });
  });
}

/** `openpractice org list [--status active|deactivated|all]`: every organisation, one JSON line each. */
export function orgListCommand(flags: Record<string, string | undefined>): Promise<void> {
  const status = (flags.status ?? "all") as "active" | "deactivated" | "all";
  if (!["active", "deactivated", "all"].includes(status))
    throw new UsageError(`--status must be active, deactivated or all (got '${status}')`);
  return withPractice(async (practice) => {
    for (let page = 1; ; page++) {
      const found = await practice.organisationAdmin.list({ status, page, perPage: 100 });
      for (const org of found.organisations) print(v2OrganisationView(org));
      if (page * 100 >= found.total) return;
    }
  });
}

/** `openpractice org update <id> [--name …] [--plan …] [--timezone …] [--audit-reads true|false] [--active true]`. */
export function orgUpdateCommand(id: string | undefined, flags: Record<string, string | undefined>): Promise<void> {
  const orgId = organisationId(id);
  const bool = (name: string) => {
    const raw = flags[name];
    if (raw === undefined) return undefined;
    if (raw !== "true" && raw !== "false") throw new UsageError(`--${name} must be true or false (got '${raw}')`);
    return raw === "true";
  };
  const changes = {
    name: flags.name,
    plan: plan(flags.plan),
    timeZone: flags.timezone,
    auditReads: bool("audit-reads"),
    active: bool("active"),
  };
  const fields = Object.entries({
    name: changes.name,
    plan: changes.plan,
    time_zone: changes.timeZone,
    audit_reads: changes.auditReads,
    active: changes.active,
  })
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (fields.length === 0)
    throw new UsageError("org update needs at least one of --name, --plan, --timezone, --audit-reads, --active");
  return withPractice(async (practice) => {
    const org = await practice.organisationAdmin.update(orgId, changes);
    await practice.audit.record(orgId, cliEntry("cli.org.update", orgId, fields));
    print(v2OrganisationView(org));
  });
}

/** `openpractice org deactivate <id>`: every token of the organisation is refused (within 30 seconds). */
export function orgDeactivateCommand(id: string | undefined): Promise<void> {
  const orgId = organisationId(id);
  return withPractice(async (practice) => {
    const org = await practice.organisationAdmin.deactivate(orgId);
    await practice.audit.record(orgId, cliEntry("cli.org.deactivate", orgId, ["active"]));
    print(v2OrganisationView(org));
  });
}

/** `openpractice platform-client create --name …`: a client whose tokens carry platform:admin (and nothing else). */
export function platformClientCreateCommand(flags: Record<string, string | undefined>): Promise<void> {
  if (!flags.name) throw new UsageError("platform-client create needs --name");
  const name = flags.name;
  return withPractice(async (practice) => {
    const { client, secret } = await practice.apiClients.createPlatformClient(name);
    print({ ...v2ApiClientView(client), client_secret: secret });
  });
}

/** `openpractice keys rotate`: a new token signing key (used from the next start); old ones stay until their tokens expire. */
export async function keysRotateCommand(): Promise<void> {
  const config = loadConfig();
  print({ rotated: "token-signing-key", ...(await rotateSigningKeys(config.dataDir, config.jwtMaxLifetimeSeconds)) });
}
