import { describe, expect, it } from "vitest";
import {
  allowedTaskActions,
  TASK_TRANSITIONS,
  TASK_TRIGGERS,
  taskTransition,
  TRIGGER_FOR_STATUS,
} from "./task-status-transitions.js";
import { TASK_STATUSES } from "./task.js";

// Every row of the table, and every (status, trigger) pair it leaves out, as the service sees them.
const ALLOWED: Record<string, string> = {
  "open/start": "in_progress",
  "open/complete": "done",
  "in_progress/complete": "done",
  "open/cancel": "cancelled",
  "in_progress/cancel": "cancelled",
  "done/reopen": "open",
  "cancelled/reopen": "open",
  "open/resolve": "done",
  "in_progress/resolve": "done",
  "open/withdraw": "cancelled",
  "in_progress/withdraw": "cancelled",
};

describe("task status table", () => {
  for (const from of TASK_STATUSES)
    for (const trigger of TASK_TRIGGERS) {
      const pair = `${from}/${trigger}`;
      if (pair in ALLOWED)
        it(`${pair} → ${ALLOWED[pair]}`, () => {
          expect(taskTransition(from, trigger)?.to).toBe(ALLOWED[pair]);
        });
      else
        it(`${pair} is refused`, () => {
          expect(taskTransition(from, trigger)).toBeUndefined();
        });
    }

  it("has exactly the rows above, each once", () => {
    expect(TASK_TRANSITIONS.map((t) => `${t.from}/${t.trigger}`).sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it("emits task.completed on every way to done and task.updated on every other row", () => {
    for (const t of TASK_TRANSITIONS) {
      if (t.to === "done") expect(t.effects).toContain("emit_task_completed");
      else expect(t.effects).toContain("emit_task_updated");
      expect(t.effects.filter((e) => e.startsWith("emit_"))).toHaveLength(1);
    }
  });

  it("leaves resolve and withdraw to the system, which releases the rule's key", () => {
    for (const t of TASK_TRANSITIONS) {
      const system = t.trigger === "resolve" || t.trigger === "withdraw";
      expect(t.guards.includes("system")).toBe(system);
      expect(t.effects.includes("release_rule_key")).toBe(system);
    }
    for (const status of TASK_STATUSES) {
      expect(allowedTaskActions(status)).not.toContain("resolve");
      expect(allowedTaskActions(status)).not.toContain("withdraw");
    }
  });

  it("reads a requested status as the trigger that reaches it", () => {
    for (const [status, trigger] of Object.entries(TRIGGER_FOR_STATUS))
      for (const t of TASK_TRANSITIONS.filter((row) => row.trigger === trigger)) expect(t.to).toBe(status);
  });
});
