import { coreModules } from "../modules.js";

/**
 * The stable catalogue of domain error codes, gathered from every core
 * module's `errorCodes` (each code's meaning is documented where its module
 * declares it). Codes are part of the public contract: integrators branch on
 * them, so a code is never renamed or reused. Each wire contract (v1 envelope,
 * v2 error body) maps these codes exactly once, in packages/http, and the
 * compiler refuses a code either map lacks.
 */
export type ErrorCode = (typeof coreModules)[number]["errorCodes"][number];

let catalogue: readonly ErrorCode[] | undefined;

/** Every code, module by module (read lazily: modules import the error type while the list is still being built). */
export function errorCodes(): readonly ErrorCode[] {
  return (catalogue ??= Object.freeze(coreModules.flatMap((m): readonly ErrorCode[] => m.errorCodes)));
}
