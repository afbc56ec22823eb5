import { describe, expect, it } from "vitest";
import { domainEvent, eventPayloadFields } from "./catalogues.js";

describe("event catalog", () => {
  it("carries organisation_id in every event type", () => {
    for (const fields of Object.values(eventPayloadFields())) expect(fields).toContain("organisation_id");
  });

  it("refuses a payload field outside the allow-list", () => {
    const at = new Date();
    expect(() =>
      domainEvent("patient.created", { organisation_id: 1, patient_id: 2, status: "active" } as never, at),
    ).toThrow(/may not carry field status/);
    expect(domainEvent("patient.updated", { organisation_id: 1, patient_id: 2 }, at)).toMatchObject({
      organisationId: 1,
      eventType: "patient.updated",
    });
  });
});
