import { randomUUID } from "node:crypto";

/** Identifier generation, behind a port so tests can make ids predictable. */
export interface Ids {
  /** A random RFC 4122 v4 UUID. */
  uuid(): string;
}

export const randomIds: Ids = { uuid: () => randomUUID() };
