import { defineKyselyModule } from "../kysely-module.js";
import { waitlistMigration } from "../migrations/028-waitlist.js";
import { KyselyWaitlistRepository } from "../repositories/waitlist-repository.js";

/** Waitlist requests and offers. */
export const waitlistKyselyModule = defineKyselyModule({
  key: "waitlist",
  repositories: (db, profile) => ({ waitlist: new KyselyWaitlistRepository(db, profile) }),
  migrations: (profile) => ({ "028-waitlist": waitlistMigration(profile) }),
  tables: ["waitlist_offers", "waitlist_requests"],
});
