import type { Plan } from "./organisation.js";

/** Requests per minute per organisation on the v2 interface (spec 8). */
export const DEFAULT_PLAN_LIMITS: Readonly<Record<Plan, number>> = Object.freeze({
  free: 60,
  professional: 300,
  enterprise: 1000,
});

/** Plan limits with a deployment's overrides applied (a self-hosted clinic may raise its own ceiling). */
export function resolvePlanLimits(overrides: Partial<Record<Plan, number>> = {}): Readonly<Record<Plan, number>> {
  return Object.freeze({ ...DEFAULT_PLAN_LIMITS, ...overrides });
}
