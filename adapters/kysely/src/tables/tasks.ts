import type { Generated } from "kysely";

export interface TasksTable {
  id: Generated<number>;
  organisation_id: number;
  title: string;
  description: string | null;
  patient_id: number | null;
  /** appointment | case | soap_note | document | authorization | coverage; NULL with subject_id when none. */
  subject_type: string | null;
  subject_id: string | null;
  clinic_id: number | null;
  /** provider | staff; NULL with assignee_id when unassigned. */
  assignee_type: string | null;
  assignee_id: number | null;
  assignment_seq: number;
  priority: string;
  /** priorityRank(priority): urgent 0 … low 3, what the priority sort orders by. */
  priority_rank: number;
  due_at: string | null;
  /** due_at, else NO_DUE_ORDER: what the due sort orders by (no due time last ascending, on every engine). */
  due_order: string;
  status: string;
  /** person | system */
  origin: string;
  rule: string | null;
  /** Unique within the organisation (tasks_rule_key_uq); NULL keys never clash. */
  rule_key: string | null;
  created_by_user_id: number | null;
  created_by_client_id: string | null;
  completed_at: string | null;
  completed_by_user_id: number | null;
  resolution: string | null;
  overdue_at: string | null;
  overdue_notified_for: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface TaskCommentsTable {
  id: Generated<number>;
  organisation_id: number;
  task_id: number;
  body: string;
  author_user_id: number | null;
  author_client_id: string | null;
  author_name: string | null;
  created_at: string;
}

export interface TaskSettingsTable {
  organisation_id: number;
  /** JSON array of the rules the organisation turned off. */
  disabled_rules: string;
  updated_at: string;
}

/** The tasks domain's tables by name: its line in `Database` (schema.ts). */
export interface TasksSchema {
  tasks: TasksTable;
  task_comments: TaskCommentsTable;
  task_settings: TaskSettingsTable;
}
