import { defineKyselyModule } from "../kysely-module.js";
import { organisationAdminMigration } from "../migrations/021-organisation-admin.js";
import { apiClientsMigration } from "../migrations/022-api-clients.js";
import { apiClientRedirectUrisMigration } from "../migrations/039-api-client-redirect-uris.js";
import { KyselyApiClientRepository } from "../repositories/api-client-repository.js";
import { clientAssertionKeysMigration } from "../migrations/047-client-assertion-keys.js";
import { KyselyClientAssertionRepository } from "../repositories/client-assertion-repository.js";

/** Organisation administration (its columns of organisations) and API clients. */
export const accessKyselyModule = defineKyselyModule({
  key: "access",
  repositories: (db, profile) => ({
    apiClients: new KyselyApiClientRepository(db, profile),
    clientAssertions: new KyselyClientAssertionRepository(db, profile),
  }),
  migrations: (profile) => ({
    "021-organisation-admin": organisationAdminMigration(),
    "022-api-clients": apiClientsMigration(profile),
    "039-api-client-redirect-uris": apiClientRedirectUrisMigration(),
    "047-client-assertion-keys": clientAssertionKeysMigration(),
  }),
  tables: ["api_clients", "client_assertions"],
});
