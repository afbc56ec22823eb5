/**
 * A scalar option of createPractice that a module declares: createPractice checks it and applies its default, the
 * runtime reads it from the environment. Options that are objects (gateways, transports, ciphers, keys) are typed
 * options of createPractice without a variable.
 */
export type OptionDescriptor = IntegerOption | BooleanOption;

/** A module's options, by name (the createPractice option; the runtime's variable is derived from it). */
export type OptionDescriptors = Readonly<Record<string, OptionDescriptor>>;

export interface IntegerOption {
  readonly kind: "integer";
  readonly min: number;
  readonly max: number;
  readonly default: number | null;
  /** null is a value of its own (the option says what it means). */
  readonly nullable: boolean;
  /**
   * The runtime's environment variable: its name (by default OPENPRACTICE_ and the option's name in capitals,
   * waitlistOfferMinutes: OPENPRACTICE_WAITLIST_OFFER_MINUTES) and the number that stands for null there.
   */
  readonly environment: { readonly name?: string; readonly nullAs?: number };
}

export interface BooleanOption {
  readonly kind: "boolean";
  readonly default: boolean;
  /**
   * Meant for development deployments: a host turns it on in its own way (the runtime: OPENPRACTICE_ENV=development)
   * and refusals it would lift name that way (PracticeOptions.settingNames).
   */
  readonly development: boolean;
}

/** The value an option takes once resolved. */
export type OptionValue<D extends OptionDescriptor> = D extends BooleanOption
  ? boolean
  : D extends { readonly nullable: true }
    ? number | null
    : number;

/** The resolved values of some options, by name. */
export type OptionValues<P extends OptionDescriptors> = { readonly [K in keyof P]: OptionValue<P[K]> };

/** An integer option from `min` to `max`. */
export function integerOption(d: {
  min: number;
  max: number;
  default: number;
  /** The environment variable, where it is not the one derived from the option's name. */
  variable?: string;
}): IntegerOption & { readonly nullable: false } {
  return Object.freeze({
    kind: "integer",
    min: d.min,
    max: d.max,
    default: d.default,
    nullable: false,
    environment: Object.freeze(d.variable === undefined ? {} : { name: d.variable }),
  });
}

/** An integer option from `min` to `max`, or null; in the environment `nullAs` stands for null. */
export function nullableIntegerOption(d: {
  min: number;
  max: number;
  default: number | null;
  nullAs: number;
}): IntegerOption & { readonly nullable: true } {
  return Object.freeze({
    kind: "integer",
    min: d.min,
    max: d.max,
    default: d.default,
    nullable: true,
    environment: Object.freeze({ nullAs: d.nullAs }),
  });
}

/** A true-or-false option; `development`: see BooleanOption. */
export function booleanOption<const Development extends boolean>(d: {
  default: boolean;
  development: Development;
}): BooleanOption & { readonly development: Development } {
  return Object.freeze({ kind: "boolean", default: d.default, development: d.development });
}

/** The names of the options a host sets its own way in development (BooleanOption.development). */
export type DevelopmentOptionName<P extends OptionDescriptors> = {
  [K in keyof P]: P[K] extends { readonly development: true } ? K : never;
}[keyof P] &
  string;

/** What is wrong with `value` as the option `name`, in one line; undefined when it is right (or left out). */
export function optionProblem(name: string, option: OptionDescriptor, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (option.kind === "boolean")
    return typeof value === "boolean" ? undefined : `${name} must be true or false (got ${String(value)})`;
  if (value === null && option.nullable) return undefined;
  if (typeof value === "number" && Number.isInteger(value) && value >= option.min && value <= option.max)
    return undefined;
  return `${name} must be ${option.nullable ? "null or " : ""}an integer from ${option.min} to ${option.max} (got ${String(value)})`;
}

/** The environment variable of an integer option: its own name, or OPENPRACTICE_ and the option's name in capitals. */
export function environmentVariableOf(name: string, option: IntegerOption): string {
  return option.environment.name ?? `OPENPRACTICE_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** The names of the integer options, each read from an environment variable by the runtime. */
export type IntegerOptionName<P extends OptionDescriptors> = {
  [K in keyof P]: P[K] extends IntegerOption ? K : never;
}[keyof P] &
  string;
