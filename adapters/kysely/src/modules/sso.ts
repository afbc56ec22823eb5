import { defineKyselyModule } from "../kysely-module.js";
import { ssoGrantsMigration } from "../migrations/040-sso-grants.js";
import { KyselySsoGrantRepository } from "../repositories/sso-grant-repository.js";

/** Single sign-on's launch codes and the tokens they gave. */
export const ssoKyselyModule = defineKyselyModule({
  key: "sso",
  repositories: (db) => ({ ssoGrants: new KyselySsoGrantRepository(db) }),
  migrations: () => ({ "040-sso-grants": ssoGrantsMigration() }),
  tables: ["sso_grants"],
});
