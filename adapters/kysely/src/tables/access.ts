import type { Generated } from "kysely";

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
  /** JSON array; NULL (clients from before 039): none. */
  redirect_uris: string | null;
  /** A JWK Set as JSON; NULL: none (047). */
  jwks: string | null;
  jwks_uri: string | null;
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

/** A client assertion the token endpoint accepted, until it expires (047). */
export interface ClientAssertionsTable {
  client_id: string;
  jti: string;
  expires_at: string;
}

/** The access domain's tables by name: its line in `Database` (schema.ts). */
export interface AccessSchema {
  api_clients: ApiClientsTable;
  client_assertions: ClientAssertionsTable;
}
