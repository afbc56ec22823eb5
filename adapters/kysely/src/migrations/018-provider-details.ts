import { type Kysely, type Migration, sql } from "kysely";
import { dropIndexOf, type SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * What a provider needs beyond name, NPI and supervisor for the v2 directory: credentials, licence, specialities,
 * their own co-signature rule, an active flag and times; and the NPI becomes unique per organisation (an
 * individual NPI names one person). Lists are JSON text, read and written whole.
 */
export function providerDetailsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      // Two providers of one organisation with one NPI cannot both be right: stop with what to fix, change nothing.
      const clashes = await db
        .selectFrom("providers")
        .select(["organisation_id", "npi", sql<number>`count(*)`.as("n")])
        .where("npi", "is not", null)
        .groupBy(["organisation_id", "npi"])
        .having(sql`count(*)`, ">", 1)
        .execute();
      if (clashes.length > 0)
        throw new Error(
          `migration 018: providers share an NPI within an organisation (${clashes
            .map((c) => `organisation ${c.organisation_id}, NPI ${c.npi}`)
            .join("; ")}); give each its own NPI or null before upgrading`,
        );
      const add = (name: string, type: string, build?: (c: any) => any) =>
        db.schema.alterTable("providers").addColumn(name, sql.raw(type), build).execute();
      await add("credentials", "varchar(500)", (c) => c.notNull().defaultTo("[]"));
      await add("licence_number", "varchar(30)");
      await add("licence_state", "varchar(2)");
      await add("specialities", "varchar(500)", (c) => c.notNull().defaultTo("[]"));
      await add("requires_cosign", "integer", (c) => c.notNull().defaultTo(0));
      await add("active", "integer", (c) => c.notNull().defaultTo(1));
      await add("created_at", "varchar(30)");
      await add("updated_at", "varchar(30)");
      const now = new Date().toISOString();
      await db
        .updateTable("providers")
        .set({ created_at: now, updated_at: now })
        .where("created_at", "is", null)
        .execute();
      await db.schema
        .createIndex("providers_org_npi_uq")
        .on("providers")
        .columns(["organisation_id", "npi"])
        .unique()
        .execute();
    },
    async down(db: Kysely<any>) {
      await dropIndexOf(db, profile, "providers_org_npi_uq", "providers").execute();
      for (const name of [
        "credentials",
        "licence_number",
        "licence_state",
        "specialities",
        "requires_cosign",
        "active",
        "created_at",
        "updated_at",
      ])
        await db.schema.alterTable("providers").dropColumn(name).execute();
    },
  };
}
