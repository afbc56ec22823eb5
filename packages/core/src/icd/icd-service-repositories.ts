import type { IcdRepository } from "./icd-repository.js";

/** The repositories the ICD-10-CM search read and write through: each a port of the feature that owns it. */
export interface IcdServiceRepositories {
  icd: IcdRepository;
}
