import * as rruleModule from "rrule";

/**
 * rrule ships CommonJS for Node (its `main`) and ES modules for bundlers (its `module`), and Node finds no named
 * exports in the CommonJS build: under Node the classes sit on the default export, under a bundler on the module
 * itself. One place reads whichever is there.
 */
const loaded = ((rruleModule as { default?: typeof rruleModule }).default ?? rruleModule) as typeof rruleModule;

export const RRule = loaded.RRule;
export const rrulestr = loaded.rrulestr;
export type RRuleInstance = InstanceType<typeof rruleModule.RRule>;
