import type { TreatmentLine, TreatmentSheet } from "./treatment-sheet.js";

/** Treatment sheets, one per note (a unique key on the note enforces it). */
export interface TreatmentSheetRepository {
  /** Inserts the note's sheet; undefined when the note already has one (nothing written). */
  insert(sheet: Omit<TreatmentSheet, "id">): Promise<TreatmentSheet | undefined>;
  findById(organisationId: number, id: number): Promise<TreatmentSheet | undefined>;
  findByContextId(organisationId: number, contextId: string): Promise<TreatmentSheet | undefined>;
  replaceTreatments(organisationId: number, id: number, treatments: TreatmentLine[], now: Date): Promise<void>;
}
