import { describe, expect, it } from "vitest";
import { declaredMediaType, detectMediaType } from "./media-type-detection.js";

/** A valid 1×1 grey little-endian TIFF: header, one IFD of eight entries, one pixel. */
function oneByOneTiff(): Buffer {
  const entries: Array<[tag: number, type: number, value: number]> = [
    [256, 3, 1], // ImageWidth
    [257, 3, 1], // ImageLength
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // Photometric: black is zero
    [273, 4, 8 + 2 + 8 * 12 + 4], // StripOffsets: right after the IFD
    [278, 3, 1], // RowsPerStrip
    [279, 4, 1], // StripByteCounts
  ];
  const out = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + 1);
  out.write("II", 0, "ascii");
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    if (type === 3) out.writeUInt16LE(value, at + 8);
    else out.writeUInt32LE(value, at + 8);
  });
  out[out.length - 1] = 0x80;
  return out;
}

describe("media type detection", () => {
  it("names types from magic numbers, not from names", async () => {
    expect(await detectMediaType(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"))).toBe("application/pdf");
    expect(await detectMediaType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]))).toBe(
      "image/jpeg",
    );
    expect(
      await detectMediaType(
        Buffer.from(
          "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
          "base64",
        ),
      ),
    ).toBe("image/png");
    expect(await detectMediaType(oneByOneTiff())).toBe("image/tiff");
    // An ISO-BMFF file whose brand is heic: a phone's photo of an insurance card.
    const ftyp = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypheic", "latin1"),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from("mif1heic", "latin1"),
      Buffer.alloc(64),
    ]);
    expect(await detectMediaType(ftyp)).toBe("image/heic");
  });

  it("recognises UTF-8 text apart, and calls binary it cannot name octet-stream", async () => {
    expect(await detectMediaType(Buffer.from("Referral: knee pain, 6 weeks. Schmerz – Ödem ✓\r\n"))).toBe("text/plain");
    // A multi-byte character cut at the end of the sample is still text.
    expect(await detectMediaType(Buffer.from("abc é").subarray(0, 5))).toBe("text/plain");
    expect(await detectMediaType(Buffer.from([0x00, 0x01, 0x02, 0x03, 0xfe]))).toBe("application/octet-stream");
    expect(await detectMediaType(Buffer.from([0xc3, 0x28, 0x41]))).toBe("application/octet-stream");
  });

  it("folds what clients declare", () => {
    expect(declaredMediaType("image/JPG")).toBe("image/jpeg");
    expect(declaredMediaType("text/plain; charset=utf-8")).toBe("text/plain");
    expect(declaredMediaType("application/octet-stream")).toBeUndefined();
    expect(declaredMediaType(undefined)).toBeUndefined();
  });
});
