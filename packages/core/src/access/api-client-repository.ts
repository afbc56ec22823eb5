import type { ApiClient, ApiClientStatus } from "./api-client.js";

export interface ApiClientRepository {
  /**
   * Inserts a client; `created: false` with the holder's id when the organisation already has a client with this
   * name (case-insensitive; unique key, nothing written, an enclosing transaction stays usable).
   */
  insert(
    client: Omit<ApiClient, "id">,
  ): Promise<{ created: true; client: ApiClient } | { created: false; existingId: number }>;
  /** Replaces the stored fields; the name is checked the same way. */
  update(client: ApiClient): Promise<{ updated: true } | { updated: false; existingId: number }>;
  /** The client with this row id in the organisation, or undefined. */
  findById(organisationId: number, id: number): Promise<ApiClient | undefined>;
  /** The client with this public client_id, whatever its organisation, or undefined. */
  findByClientId(clientId: string): Promise<ApiClient | undefined>;
  /** Clients of the organisation by id. */
  list(
    organisationId: number,
    filter: { status?: ApiClientStatus | undefined; limit: number; offset: number },
  ): Promise<{ clients: ApiClient[]; total: number }>;
  /** Records when the client last obtained a token (not a change of the client: updatedAt stays). */
  touchLastToken(id: number, at: Date): Promise<void>;
}
