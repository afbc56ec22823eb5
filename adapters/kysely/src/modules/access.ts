import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { organisationAdminMigration } from "../migrations/021-organisation-admin.js";
import { apiClientsMigration } from "../migrations/022-api-clients.js";
import { KyselyApiClientRepository } from "../repositories/api-client-repository.js";

export interface ApiClientsTable {
  id: Generated<number>;
  /** 0: a platform client. */
  organisation_id: number;
  client_id: string;
  name: string;
  /** The lower-cased name: unique per organisation. */
  name_key: string;
  /** JSON arrays. */
  scopes: string;
  clinic_ids: string;
  user_id: number | null;
  status: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: string | null;
  secret_rotated_at: string | null;
  last_token_at: string | null;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

/** Organisation administration (its columns of organisations) and API clients. */
export const accessKyselyModule = defineKyselyModule({
  key: "access",
  repositories: (db, profile) => ({ apiClients: new KyselyApiClientRepository(db, profile) }),
  migrations: (profile) => ({
    "021-organisation-admin": organisationAdminMigration(),
    "022-api-clients": apiClientsMigration(profile),
  }),
  tables: ["api_clients"],
});
