import { describe, expect, it } from "vitest";
import { parseClearinghouses } from "./clearinghouses.js";

const one = {
  url: "https://clearinghouse.example/realtime",
  username: "u",
  password: "p",
  submitter_id: "SUB",
  receiver_id: "RCV",
  provider_npi: "1234567893",
  provider_name: "Lakeview PT",
};

describe("OPENPRACTICE_ELIGIBILITY_CLEARINGHOUSES", () => {
  it("reads each organisation's clearinghouse", () => {
    const parsed = parseClearinghouses(JSON.stringify({ 3: { ...one, timeout_ms: 5000, usage: "T" } }));
    expect(parsed.get(3)).toEqual({
      url: one.url,
      username: "u",
      password: "p",
      submitterId: "SUB",
      receiverId: "RCV",
      providerNpi: "1234567893",
      providerName: "Lakeview PT",
      timeoutMs: 5000,
      usage: "T",
    });
    expect(parseClearinghouses(undefined).size).toBe(0);
  });

  it("refuses what would fail at the first check, naming it", () => {
    expect(() => parseClearinghouses("[1]")).toThrow(/JSON object/);
    expect(() => parseClearinghouses(JSON.stringify({ x: one }))).toThrow(/'x' is not an organisation id/);
    expect(() => parseClearinghouses(JSON.stringify({ 1: { ...one, password: "" } }))).toThrow(/lacks password/);
    expect(() => parseClearinghouses(JSON.stringify({ 1: { ...one, url: "http://a" } }))).toThrow(/must be https/);
    expect(() => parseClearinghouses(JSON.stringify({ 1: { ...one, timeout_ms: 5 } }))).toThrow(/timeout_ms/);
    expect(() => parseClearinghouses(JSON.stringify({ 1: { ...one, ca_file: "/nonexistent.pem" } }))).toThrow(
      /ca_file cannot be read/,
    );
  });
});
