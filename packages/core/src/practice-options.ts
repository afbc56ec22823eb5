import { type IntegerOptionName, type OptionDescriptor, type OptionValue, optionProblem } from "./kernel/options.js";
import { coreModules, type ModuleOptionDescriptors } from "./modules.js";
import { PracticeConfigurationError } from "./practice-keys.js";
import type { HostNamedSetting, ModuleSettings } from "./practice-settings.js";

/**
 * Every module's scalar options, by name, in the modules' order: createPractice checks them and applies their
 * defaults, and a host reads them from its configuration (the runtime: an environment variable for each integer
 * option, OPENPRACTICE_ENV=development for the development ones).
 */
export const practiceOptionDescriptors: Readonly<ModuleOptionDescriptors> = Object.freeze(
  Object.assign({}, ...coreModules.map((m) => m.options)),
);

/** The modules' options as createPractice takes them: each optional, its default when left out. */
export type ModuleOptions = { [K in keyof ModuleOptionDescriptors]?: OptionValue<ModuleOptionDescriptors[K]> };

/** The options a host reads from its environment (the integer ones), with their values after defaults. */
export type PracticeEnvironmentSettings = Pick<ModuleSettings, IntegerOptionName<ModuleOptionDescriptors>>;

const entries = () => Object.entries(practiceOptionDescriptors) as Array<[string, OptionDescriptor]>;

/** The modules' options of `given` checked and defaulted; PracticeConfigurationError names the first one wrong. */
export function resolveModuleSettings(given: ModuleOptions): ModuleSettings {
  const settings: Record<string, unknown> = {};
  for (const [name, option] of entries()) {
    const value: unknown = (given as Readonly<Record<string, unknown>>)[name];
    const problem = optionProblem(name, option, value);
    if (problem) throw new PracticeConfigurationError(problem);
    settings[name] = value === undefined ? option.default : value;
  }
  return settings as ModuleSettings;
}

/** How refusals name each development option: `given`'s words, else the createPractice option itself. */
export function resolveSettingNames(
  given: Readonly<Partial<Record<HostNamedSetting, string | undefined>>>,
): Readonly<Record<HostNamedSetting, string>> {
  const names: Record<string, string> = {};
  for (const [name, option] of entries())
    if (option.kind === "boolean" && option.development)
      names[name] = given[name as HostNamedSetting] ?? `the createPractice option ${name}: true`;
  return Object.freeze(names) as Record<HostNamedSetting, string>;
}
