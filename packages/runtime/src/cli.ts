#!/usr/bin/env node
import { parseArgs } from "node:util";
import { ConfigError } from "./config/config.js";
import {
  importCatalogCommand,
  importIcdCommand,
  importPayersCommand,
  migrateCommand,
  seedCommand,
  serveCommand,
  tokenCommand,
  UsageError,
} from "./cli/commands.js";
import { backupCommand, restoreCommand } from "./cli/backup-commands.js";
import {
  keysRotateCommand,
  orgCreateCommand,
  orgDeactivateCommand,
  orgListCommand,
  orgUpdateCommand,
  platformClientCreateCommand,
} from "./cli/org-commands.js";
import { DatabaseUnavailableError } from "./storage-from-url.js";
import { DatabaseInUseError } from "./cli/database-in-use.js";

const USAGE = `usage: openpractice <command> [options]

commands:
  serve [--workers N]        start the HTTP server (configuration from the environment); N processes share the
                             port (default: one per core on PostgreSQL and MySQL, 1 on SQLite; OPENPRACTICE_WORKERS)
  migrate [up]               apply pending database migrations (there is no "down": restore a backup instead)
  seed [--org N] [--patients N]
                             create the demo organisation, clinics, doctors and patients (idempotent)
  import icd10cm <file> [--year YYYY]
                             load a CMS ICD-10-CM order file as that year's code set (idempotent; the
                             year comes from the file name, e.g. icd10cm_order_2026.txt, or --year)
  import catalog <csv> [--org N]
                             upsert billing codes (columns: code, description, timed, modifiers, specialities,
                             note_types, payer_ids, active) for the organisation (default 1)
  import payers <csv>
                             upsert the payer registry every organisation sees (columns: payer_id, name,
                             type, eligibility); a bad row is named by its line and nothing is written
  org create --name S [--plan free|professional|enterprise] [--timezone ZONE] [--client-name S]
                             create an organisation and its first API client (scopes admin read write);
                             prints both as JSON, the client_secret only this once
  org list [--status active|deactivated|all]
  org update <id> [--name S] [--plan P] [--timezone ZONE] [--audit-reads true|false] [--active true|false]
  org deactivate <id>        refuse every token of the organisation (within 30 seconds)
  platform-client create --name S
                             an API client whose tokens carry platform:admin (/v2/organisations)
  backup <file | folder/> [--encrypt] [--keep N]
                             a consistent copy of the SQLite database while the server runs (0600), and the key
                             files to keep with it; into a folder named by the time, --keep N removing older
                             ones there; --encrypt: an age file for the backup key (OPENPRACTICE_BACKUP_KEY or
                             <data dir>/backup-key). PostgreSQL, MySQL: pg_dump, mariadb-dump (docs/deployment.md)
  restore <file>             check a backup (decrypting an age file) and put it in place of the SQLite database,
                             refused while a process has it open (exit 75); the old one is kept as
                             <database>.before-restore; then migrate
  keys rotate                a new ES256 key signs tokens of /oauth/token from the next start; older keys
                             stay published until their tokens have expired
  token --org N [--user N] [--scope "read write"] [--name S] [--clinics 1,2] [--roles a,b] [--ttl SECONDS]
                             print a bearer token signed with the configured secret
  token --platform [--ttl SECONDS]
                             print a platform token (scope platform:admin) for /v2/organisations`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: "string" },
      user: { type: "string" },
      scope: { type: "string" },
      name: { type: "string" },
      clinics: { type: "string" },
      roles: { type: "string" },
      ttl: { type: "string" },
      patients: { type: "string" },
      year: { type: "string" },
      plan: { type: "string" },
      timezone: { type: "string" },
      status: { type: "string" },
      active: { type: "string" },
      "audit-reads": { type: "string" },
      "client-name": { type: "string" },
      workers: { type: "string" },
      platform: { type: "boolean" },
      encrypt: { type: "boolean" },
      keep: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const flags = values as Record<string, string | undefined>;
  switch (command) {
    case "serve":
      return serveCommand(flags.workers);
    case "migrate":
      return migrateCommand(positionals[1]);
    case "seed":
      return seedCommand(flags);
    case "import":
      if (positionals[1] === "icd10cm" && positionals[2]) return importIcdCommand(positionals[2], flags);
      if (positionals[1] === "catalog" && positionals[2]) return importCatalogCommand(positionals[2], flags);
      if (positionals[1] === "payers" && positionals[2]) return importPayersCommand(positionals[2]);
      throw new UsageError("import needs: icd10cm <file> | catalog <csv> | payers <csv>");
    case "org":
      if (positionals[1] === "create") return orgCreateCommand(flags);
      if (positionals[1] === "list") return orgListCommand(flags);
      if (positionals[1] === "update") return orgUpdateCommand(positionals[2], flags);
      if (positionals[1] === "deactivate") return orgDeactivateCommand(positionals[2]);
      throw new UsageError("org needs: create | list | update <id> | deactivate <id>");
    case "platform-client":
      if (positionals[1] === "create") return platformClientCreateCommand(flags);
      throw new UsageError("platform-client needs: create --name S");
    case "backup":
      return backupCommand(positionals[1], { encrypt: values.encrypt === true, keep: flags.keep });
    case "restore":
      return restoreCommand(positionals[1]);
    case "keys":
      if (positionals[1] === "rotate") return keysRotateCommand();
      throw new UsageError("keys needs: rotate");
    case "token":
      if (!flags.org && !values.platform) throw new UsageError("token needs --org (or --platform)");
      return tokenCommand({ ...flags, platform: values.platform ? "true" : undefined });
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`openpractice: configuration error: ${error.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  if (error instanceof DatabaseUnavailableError) {
    process.stderr.write(`openpractice: ${error.message}\n`);
    process.exit(78); // EX_CONFIG: fixed in the environment, like a bad variable
  }
  if (error instanceof DatabaseInUseError) {
    process.stderr.write(`openpractice: ${error.message}\n`);
    process.exit(75); // EX_TEMPFAIL: try again once the other process has stopped
  }
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    process.stderr.write(`openpractice: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(64); // EX_USAGE
  }
  process.stderr.write(`openpractice: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
