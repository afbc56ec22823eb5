/**
 * How an organisation checks the units billed for timed (15-minute) codes:
 * - `cms_8_minute` (default): the CMS total-time rule. The timed minutes of the
 *   visit are added up; 8-22 minutes support 1 unit, 23-37 support 2, and so on
 *   (every further 15 minutes one more). The units go to the codes by their full
 *   15-minute blocks first, then one each to the largest remainders.
 * - `per_code_midpoint`: each timed code on its own: 8-22 minutes 1 unit, 23-37 2, ...
 * - `none`: no check; the units sent are the units supported.
 * Untimed codes support one unit per line under the first two rules.
 */
export const BILLING_UNIT_RULES = ["cms_8_minute", "per_code_midpoint", "none"] as const;
export type BillingUnitRule = (typeof BILLING_UNIT_RULES)[number];
export const DEFAULT_BILLING_UNIT_RULE: BillingUnitRule = "cms_8_minute";
