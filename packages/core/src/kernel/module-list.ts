import type { Owns } from "./module.js";

// What a list of modules builds, as types: the composition root applies these to its list (modules.ts), and a test
// applies them to the list with one more module to show what adding a domain changes.

/** A module of any shape, as a list holds it. */
export interface ListedModule {
  readonly key: string;
  readonly repositories: Owns<object>;
  readonly options: object;
  readonly errorCodes: readonly string[];
  readonly events: object;
  // biome-ignore lint/suspicious/noExplicitAny: a listed module's dependencies are checked by UnservedModules, not here
  createServices(deps: any): object;
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type OwnedBy<M> = M extends { readonly repositories: Owns<infer R> } ? R : never;
type NeedsOf<M> = M extends { createServices(deps: infer D): object } ? D : never;

/** The repositories every module of the list owns, merged: the storage port an adapter implements. */
export type RepositoriesOf<L extends readonly ListedModule[]> = UnionToIntersection<OwnedBy<L[number]>>;

/** The services of every module of the list, by property name. */
export type ServicesOf<L extends readonly ListedModule[]> = UnionToIntersection<
  ReturnType<L[number]["createServices"]>
>;

/** Every error code of the list's modules. */
export type ErrorCodeOf<L extends readonly ListedModule[]> = L[number]["errorCodes"][number];

/** Every module's event definitions, merged by event type. */
export type EventDefinitionsOf<L extends readonly ListedModule[]> = UnionToIntersection<L[number]["events"]>;

/** Every module's scalar options, merged by name. */
export type OptionDescriptorsOf<L extends readonly ListedModule[]> = UnionToIntersection<L[number]["options"]>;

/**
 * Each module's key, or never when `D` gives what its createServices asks for (the repositories it reads and
 * writes, the settings it reads). Indexed by the keys, the modules `D` does not serve.
 */
export type ModulesServed<L extends readonly ListedModule[], D> = {
  [K in L[number]["key"]]: D extends NeedsOf<Extract<L[number], { key: K }>> ? never : K;
};
