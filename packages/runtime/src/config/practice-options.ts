import {
  environmentVariableOf,
  type HostNamedSetting,
  type IntegerOption,
  type ModuleOptions,
  type PracticeEnvironmentSettings,
  practiceOptionDescriptors,
} from "@openpractice/core";

/** The core modules' integer options, each read from its environment variable (a new module's option appears here). */
const integerOptions = Object.entries(practiceOptionDescriptors).filter(
  (entry): entry is [string, IntegerOption] => entry[1].kind === "integer",
);

/** The variables of the core modules' options, each as the configuration schema checks it (0 for null included). */
export function practiceOptionSchema(): Record<string, object> {
  return Object.fromEntries(
    integerOptions.map(([name, option]) => [
      environmentVariableOf(name, option),
      {
        type: "number",
        integer: true,
        min: Math.min(option.min, option.environment.nullAs ?? option.min),
        max: option.max,
        convert: true,
        optional: true,
      },
    ]),
  );
}

/** The core modules' options from the checked variables: the default when unset, null for the value standing for it. */
export function practiceOptionValues(input: Readonly<Record<string, unknown>>): PracticeEnvironmentSettings {
  return Object.fromEntries(
    integerOptions.map(([name, option]) => {
      const value = input[environmentVariableOf(name, option)] as number | undefined;
      return [name, value === undefined ? option.default : value === option.environment.nullAs ? null : value];
    }),
  ) as PracticeEnvironmentSettings;
}

/**
 * createPractice's module options for this deployment: the integer ones from the configuration, the development
 * ones on with OPENPRACTICE_ENV=development, and refusals naming that variable rather than the option.
 */
export function practiceOptionsFor(
  config: PracticeEnvironmentSettings & { env: "development" | "production" },
): ModuleOptions & { settingNames: Record<HostNamedSetting, string> } {
  const options: Record<string, unknown> = {};
  const settingNames: Record<string, string> = {};
  for (const [name, option] of Object.entries(practiceOptionDescriptors)) {
    if (option.kind === "integer") options[name] = config[name as keyof PracticeEnvironmentSettings];
    else if (option.development) {
      options[name] = config.env === "development";
      settingNames[name] = "OPENPRACTICE_ENV=development";
    }
  }
  return { ...(options as ModuleOptions), settingNames: settingNames as Record<HostNamedSetting, string> };
}
