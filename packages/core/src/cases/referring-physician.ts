import type { Patch } from "../kernel/patch.js";
/** A physician who refers patients (the registry cases point into). */
export interface ReferringPhysician {
  id: number;
  organisationId: number;
  firstName: string;
  lastName: string;
  /** 10 digits with a valid check digit, or null when unknown. */
  npi: string | null;
  phoneNumber: string | null;
  faxNumber: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  /** 5 digits, or ZIP+4 (12345-6789). */
  zip: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ReferringPhysicianDraft = Omit<ReferringPhysician, "id" | "organisationId" | "createdAt" | "updatedAt">;
export type ReferringPhysicianChanges = Patch<ReferringPhysicianDraft>;
