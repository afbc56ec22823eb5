import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";
import { isValidNpi } from "./npi.js";
import type { Provider } from "./organisation.js";

export const PROVIDER_LIMITS = Object.freeze({
  nameMax: 100,
  maxCredentials: 5,
  maxSpecialities: 10,
  maxClinics: 100,
  licenceMax: 30,
  defaultPerPage: 20,
  maxPerPage: 100,
  maxSearchLength: 200,
});
export const PROVIDER_SORT_FIELDS = ["last_name", "first_name", "created_at", "updated_at"] as const;
export type ProviderSortField = (typeof PROVIDER_SORT_FIELDS)[number];

/** A credential as written after a name: letters, digits and dashes, starting with a letter (PT, DPT, CCC-SLP). */
const CREDENTIAL = /^[A-Z][A-Z0-9-]{0,11}$/;
const SPECIALITY = /^[A-Za-z0-9_ -]{1,30}$/;

/** A new provider as a client sends it. `userId` is their user id in the identity provider: tokens they use carry it. */
export interface ProviderDraft {
  userId: number;
  firstName: string;
  lastName: string;
  npi?: string | null | undefined;
  credentials?: readonly string[] | undefined;
  licenceNumber?: string | null | undefined;
  licenceState?: string | null | undefined;
  specialities?: readonly string[] | undefined;
  clinicIds?: readonly number[] | undefined;
  supervisingUserId?: number | null | undefined;
  requiresCosign?: boolean | undefined;
}

export type ProviderChanges = Patch<Omit<ProviderDraft, "userId"> & { active: boolean }>;

export type ProviderListQuery = Patch<{
  page: number;
  perPage: number;
  search: string;
  status: "active" | "inactive" | "all";
  clinicId: number;
  /** One of their specialities, compared without regard to case (v1's list filter). */
  speciality: string;
  sort: ProviderSortField;
  order: "asc" | "desc";
}>;

function names(issues: ValidationIssue[], field: string, value: unknown, required: boolean) {
  if (value === undefined && !required) return;
  if (typeof value !== "string" || value.trim() === "" || value.trim().length > PROVIDER_LIMITS.nameMax)
    issues.push({ field, reason: `must be 1 to ${PROVIDER_LIMITS.nameMax} characters`, value: value ?? null });
}

function list(
  issues: ValidationIssue[],
  field: string,
  values: readonly unknown[] | undefined,
  max: number,
  ok: (v: unknown) => boolean,
  what: string,
) {
  if (values === undefined) return;
  if (values.length > max) issues.push({ field, reason: `must hold at most ${max} entries` });
  values.forEach((v, i) => {
    if (!ok(v)) issues.push({ field: `${field}.${i}`, reason: `must be ${what}`, value: v });
    else if (values.indexOf(v) !== i) issues.push({ field: `${field}.${i}`, reason: "is listed twice", value: v });
  });
}

/** The rules of a new provider (`creating`) or a change, each bad field named; `current` is the provider changed. */
export function assertValidProvider(
  input: ProviderDraft | ProviderChanges,
  creating: boolean,
  current?: Provider,
): void {
  const issues: ValidationIssue[] = [];
  if (creating) {
    const userId = (input as ProviderDraft).userId;
    if (!Number.isSafeInteger(userId) || userId < 1)
      issues.push({
        field: "userId",
        reason: "must be a positive integer (the identity provider's user id)",
        value: userId ?? null,
      });
  }
  names(issues, "firstName", input.firstName, creating);
  names(issues, "lastName", input.lastName, creating);
  if (input.npi !== undefined && input.npi !== null && !isValidNpi(input.npi))
    issues.push({ field: "npi", reason: "must be 10 digits with a valid check digit", value: input.npi });
  list(
    issues,
    "credentials",
    input.credentials,
    PROVIDER_LIMITS.maxCredentials,
    (v) => typeof v === "string" && CREDENTIAL.test(v),
    "a credential in capitals, e.g. DPT or CCC-SLP",
  );
  list(
    issues,
    "specialities",
    input.specialities,
    PROVIDER_LIMITS.maxSpecialities,
    (v) => typeof v === "string" && SPECIALITY.test(v),
    "1 to 30 letters, digits, spaces, dashes or underscores",
  );
  list(
    issues,
    "clinicIds",
    input.clinicIds,
    PROVIDER_LIMITS.maxClinics,
    (v) => Number.isSafeInteger(v) && (v as number) > 0,
    "a clinic id",
  );
  if (
    input.licenceNumber !== undefined &&
    input.licenceNumber !== null &&
    (input.licenceNumber.trim() === "" || input.licenceNumber.trim().length > PROVIDER_LIMITS.licenceMax)
  )
    issues.push({
      field: "licenceNumber",
      reason: `must be 1 to ${PROVIDER_LIMITS.licenceMax} characters`,
      value: input.licenceNumber,
    });
  if (input.licenceState !== undefined && input.licenceState !== null && !/^[A-Z]{2}$/.test(input.licenceState))
    issues.push({
      field: "licenceState",
      reason: "must be a 2-letter upper-case state code",
      value: input.licenceState,
    });
  const supervisor =
    input.supervisingUserId === undefined ? (current?.supervisingUserId ?? null) : input.supervisingUserId;
  if (supervisor !== null && (!Number.isSafeInteger(supervisor) || supervisor < 1))
    issues.push({ field: "supervisingUserId", reason: "must be a provider's user id", value: supervisor });
  const userId = creating ? (input as ProviderDraft).userId : current?.userId;
  if (supervisor !== null && supervisor === userId)
    issues.push({
      field: "supervisingUserId",
      reason: "must be another provider: nobody supervises themselves",
      value: supervisor,
    });
  const requiresCosign = input.requiresCosign ?? current?.requiresCosign ?? false;
  if (requiresCosign && supervisor === null)
    issues.push({
      field: "requiresCosign",
      reason: "needs a supervising physician (supervisingUserId) to co-sign",
      value: true,
    });
  if (issues.length) throw DomainError.validation(issues);
}

/** A provider from what `upsertProvider` was given: the defaults of a new provider for the rest (times: now, unless given). */
export function providerWithDefaults(
  input: Pick<
    Provider,
    "organisationId" | "userId" | "firstName" | "lastName" | "npi" | "supervisingUserId" | "clinicIds"
  > &
    Partial<Omit<Provider, "id">>,
): Omit<Provider, "id"> {
  const now = input.createdAt ?? new Date();
  return {
    organisationId: input.organisationId,
    userId: input.userId,
    firstName: input.firstName,
    lastName: input.lastName,
    npi: input.npi,
    supervisingUserId: input.supervisingUserId,
    clinicIds: [...input.clinicIds],
    credentials: input.credentials ?? [],
    licenceNumber: input.licenceNumber ?? null,
    licenceState: input.licenceState ?? null,
    specialities: input.specialities ?? [],
    requiresCosign: input.requiresCosign ?? false,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: input.updatedAt ?? now,
  };
}
