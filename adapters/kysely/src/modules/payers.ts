import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { payersMigration } from "../migrations/020-payers.js";
import { KyselyPayerRepository } from "../repositories/payer-repository.js";

export interface PayersTable {
  id: Generated<number>;
  /** 0: the shared registry. */
  organisation_id: number;
  payer_id: string;
  name: string;
  /** The folded name: the list sorts on it. */
  name_sort: string;
  payer_type: string;
  /** 0 or 1. */
  eligibility: Generated<number>;
  active: Generated<number>;
  search_text: string;
  created_at: string;
  updated_at: string;
}

/** The payer registry and organisations' own payers. */
export const payersKyselyModule = defineKyselyModule({
  key: "payers",
  repositories: (db, profile) => ({ payers: new KyselyPayerRepository(db, profile) }),
  migrations: (profile) => ({ "020-payers": payersMigration(profile) }),
  tables: ["payers"],
});
