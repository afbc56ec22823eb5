import { describe, expect, it } from "vitest";
import { verdictOf } from "./clamd-reply.js";

describe("clamd's reply to INSTREAM", () => {
  it("is clean, or infected with the signature's name (spaces and dots kept)", () => {
    expect(verdictOf("stream: OK", "here")).toEqual({ infected: false });
    expect(verdictOf("stream: Win.Test.EICAR_HDB-1 FOUND", "here")).toEqual({
      infected: true,
      signature: "Win.Test.EICAR_HDB-1",
    });
    expect(verdictOf("stream: Heuristics.Encrypted.PDF FOUND", "here")).toMatchObject({ infected: true });
  });

  it("rejects the size limit, naming StreamMaxLength, clamd's read timeout, and any other error", () => {
    expect(() => verdictOf("INSTREAM size limit exceeded. ERROR", "127.0.0.1:3310")).toThrow(
      expect.objectContaining({ code: "size_limit", message: expect.stringMatching(/StreamMaxLength/) }),
    );
    expect(() => verdictOf("Can't allocate memory ERROR", "here")).toThrow(
      expect.objectContaining({ code: "error_reply" }),
    );
    expect(() => verdictOf("COMMAND READ TIMED OUT", "here")).toThrow(expect.objectContaining({ code: "timeout" }));
    expect(() => verdictOf("PONG", "here")).toThrow(expect.objectContaining({ code: "unexpected_reply" }));
  });
});
