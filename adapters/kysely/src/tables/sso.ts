/** A launch of single sign-on: the code's hash and the token it gave (040-sso-grants). */
export interface SsoGrantsTable {
  code_hash: string;
  organisation_id: number;
  user_id: number;
  user_name: string | null;
  launched_by_client_id: string | null;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  /** JSON arrays. */
  scopes: string;
  clinic_ids: string;
  /** The launching token's expiry, when known. */
  not_after: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  token_id: string | null;
  token_expires_at: string | null;
  revoked_at: string | null;
}

/** The sso domain's tables by name: its line in `Database` (schema.ts). */
export interface SsoSchema {
  sso_grants: SsoGrantsTable;
}
