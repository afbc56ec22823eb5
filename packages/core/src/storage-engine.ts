import type { Storage } from "./modules.js";

/**
 * How long after an organisation's write its list reads stay on the primary when the host names no window
 * (OPENPRACTICE_READ_YOUR_WRITES_MS): longer than a healthy replica's usual lag.
 */
export const DEFAULT_READ_YOUR_WRITES_MS = 5_000;

/** What the host passes when it opens a store by URL. */
export interface StorageEngineOptions {
  /** A pooled connection failed while idle (the pool replaces it); hosts log it. */
  onIdleConnectionError?: ((error: Error) => void) | undefined;
  /** Read replicas of the same engine for list and search reads (DATABASE_READ_URL); engines without them refuse. */
  readUrls?: readonly string[] | undefined;
  /** How long after an organisation's write its reads stay on the primary (milliseconds). */
  readYourWritesMs?: number | undefined;
  /** A replica failed and its reads go to the primary for now; hosts log it. */
  onReplicaDown?: ((replica: string, error: unknown) => void) | undefined;
}

/**
 * A storage engine as a package exports it: its name, the URL schemes it
 * serves, and how to open a migrated store from such a URL. The runtime's
 * DATABASE_URL parsing and the test engine list read a registry of these
 * (packages/runtime/src/engines.ts), so a new engine is a package and one
 * registry line.
 */
export interface StorageEngine {
  /** Short name, as in logs and test names: "sqlite", "postgres", "mysql". */
  readonly name: string;
  /** The name operators know it by, in messages: "SQLite", "PostgreSQL", "MySQL/MariaDB". */
  readonly displayName: string;
  /** A database in a local file, or on a server reached over the network (decides how a failure to open is explained). */
  readonly kind: "file" | "server";
  /** URL prefixes it serves, e.g. "sqlite:", "postgres://". */
  readonly schemes: readonly string[];
  /** Opens the store (applying pending migrations); throws the driver's error when it cannot. */
  open(url: string, options?: StorageEngineOptions): Promise<Storage>;
  /** How the server or file is named in an operator's message (never the password). */
  describeLocation(url: string): string;
}
