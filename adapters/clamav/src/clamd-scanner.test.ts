import { once } from "node:events";
import { createServer, type Server, type Socket } from "node:net";
import type { ByteStream } from "@openpractice/core";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestClamd, startTestClamd, TEST_STREAM_MAX_BYTES } from "../../../test/support/clamd.js";
import { eicarTestFile } from "../../../test/support/eicar.js";
import { ClamdScanner } from "./clamd-scanner.js";

const MiB = 1024 * 1024;

/** The bytes as one chunk per `sizes` entry (the rest in a last one), to cut a file where a test wants. */
async function* inChunks(bytes: Uint8Array, sizes: number[]): ByteStream {
  let offset = 0;
  for (const size of sizes) {
    yield bytes.slice(offset, offset + size);
    offset += size;
  }
  if (offset < bytes.byteLength) yield bytes.slice(offset);
}

/** `total` bytes of text-like filler made as they are read, 64 KiB at a time; `produced` counts what was read. */
function generated(total: number): { stream: ByteStream; produced: () => number } {
  let produced = 0;
  async function* stream() {
    const line = new TextEncoder().encode("OpenPractice clean filler, nothing to see here.\n");
    while (produced < total) {
      const chunk = new Uint8Array(Math.min(64 * 1024, total - produced));
      for (let i = 0; i < chunk.length; i += line.length) chunk.set(line.subarray(0, chunk.length - i), i);
      produced += chunk.length;
      yield chunk;
    }
  }
  return { stream: stream(), produced: () => produced };
}

async function cleanPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage();
  page.drawText("Referral letter: physiotherapy for the left knee.", {
    x: 50,
    y: 700,
    font: await pdf.embedFont(StandardFonts.Helvetica),
  });
  return pdf.save();
}

/** A local TCP server that runs `onConnection` for each client (a stand-in for clamd that misbehaves). */
async function fakeClamd(onConnection: (socket: Socket) => void): Promise<{ port: number; server: Server }> {
  const server = createServer(onConnection);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { port: address.port, server };
}

describe("ClamdScanner against a real clamd", () => {
  let clamd: TestClamd;
  beforeAll(async () => {
    clamd = await startTestClamd();
  });
  afterAll(async () => {
    await clamd?.stop();
  });

  const transports = [
    ["TCP", () => new ClamdScanner({ host: clamd.host, port: clamd.port })],
    ["a Unix socket", () => new ClamdScanner({ socketPath: clamd.socketPath })],
  ] as const;

  describe.each(transports)("over %s", (_, scanner) => {
    it("finds the EICAR test file, naming the signature", async () => {
      await expect(scanner().scan(inChunks(eicarTestFile(), []))).resolves.toEqual({
        infected: true,
        signature: clamd.signatureName,
      });
    });

    it("finds the EICAR test file split across chunks (a byte at a time, and cut in the middle)", async () => {
      const eicar = eicarTestFile();
      const verdict = { infected: true, signature: clamd.signatureName };
      await expect(scanner().scan(inChunks(eicar, Array(eicar.length).fill(1)))).resolves.toEqual(verdict);
      await expect(scanner().scan(inChunks(eicar, [0, 33, 0, 1]))).resolves.toEqual(verdict);
    });

    it("passes a clean PDF", async () => {
      await expect(scanner().scan(inChunks(await cleanPdf(), [1000]))).resolves.toEqual({ infected: false });
    });

    it("answers PING and VERSION", async () => {
      await expect(scanner().ping()).resolves.toBeUndefined();
      await expect(scanner().version()).resolves.toMatch(/^ClamAV \d+\.\d+/);
    });
  });

  it("passes 20 MiB of clean bytes made as they are sent", async () => {
    const source = generated(20 * MiB);
    await expect(new ClamdScanner({ socketPath: clamd.socketPath }).scan(source.stream)).resolves.toEqual({
      infected: false,
    });
    expect(source.produced()).toBe(20 * MiB);
  });

  it("rejects a document over clamd's StreamMaxLength, naming the limit, and stops reading it", async () => {
    // Far over the limit, so that what the sockets' buffers hold when clamd stops cannot be all of it.
    const source = generated(TEST_STREAM_MAX_BYTES + 64 * MiB);
    const scanning = new ClamdScanner({ host: clamd.host, port: clamd.port }).scan(source.stream);
    await expect(scanning).rejects.toMatchObject({ name: "ClamdError", message: /StreamMaxLength/ });
    expect(source.produced()).toBeLessThan(TEST_STREAM_MAX_BYTES + 16 * MiB);
  });

  it("rejects with the source's error when the document cannot be read, and clamd goes on", async () => {
    async function* failing(): ByteStream {
      yield new Uint8Array(1000);
      throw new Error("the upload was cut off");
    }
    const scanner = new ClamdScanner({ host: clamd.host, port: clamd.port });
    await expect(scanner.scan(failing())).rejects.toThrow("the upload was cut off");
    await expect(scanner.scan(inChunks(eicarTestFile(), []))).resolves.toMatchObject({ infected: true });
  });
});

describe("ClamdScanner without an answer", () => {
  it("rejects at once when clamd is stopped (TCP refused, Unix socket gone)", async () => {
    const clamd = await startTestClamd();
    await clamd.stop();
    for (const scanner of [
      new ClamdScanner({ host: clamd.host, port: clamd.port }),
      new ClamdScanner({ socketPath: clamd.socketPath }),
    ]) {
      const started = performance.now();
      await expect(scanner.scan(inChunks(eicarTestFile(), []))).rejects.toMatchObject({
        name: "ClamdError",
        code: "unreachable",
      });
      await expect(scanner.ping()).rejects.toMatchObject({ code: "unreachable" });
      expect(performance.now() - started).toBeLessThan(1000);
    }
    await expect(new ClamdScanner({ host: clamd.host, port: clamd.port }).ping()).rejects.toThrow(/ECONNREFUSED/);
  });

  it("times out on a server that accepts and never answers", async () => {
    const held: Socket[] = [];
    const { port, server } = await fakeClamd((socket) => held.push(socket));
    try {
      const scanner = new ClamdScanner({ host: "127.0.0.1", port, timeoutMs: 300 });
      const started = performance.now();
      await expect(scanner.scan(inChunks(eicarTestFile(), []))).rejects.toMatchObject({
        name: "ClamdError",
        code: "timeout",
        message: /no answer within 300 ms/,
      });
      expect(performance.now() - started).toBeLessThan(2000);
      await expect(scanner.ping()).rejects.toMatchObject({ code: "timeout" });
    } finally {
      for (const socket of held) socket.destroy();
      server.close();
    }
  });

  it("reads the document only as fast as the scanner takes it (backpressure)", async () => {
    // zINSTREAM and its NUL, 64 MiB in 1,024 frames of 64 KiB with their lengths, the zero-length end.
    const wholeStream = 10 + 64 * MiB + 1024 * 4 + 4;
    let received = 0;
    let reader: Socket | undefined;
    const { port, server } = await fakeClamd((socket) => {
      reader = socket;
      socket.pause();
      socket.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (received === wholeStream) socket.end("stream: OK\0");
      });
    });
    try {
      const source = generated(64 * MiB);
      const scanning = new ClamdScanner({ host: "127.0.0.1", port }).scan(source.stream);
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Nothing read by the server: what was pulled from the source fits in the sockets' buffers and one frame.
      expect(received).toBe(0);
      expect(source.produced()).toBeLessThan(16 * MiB);
      reader?.resume();
      await expect(scanning).resolves.toEqual({ infected: false });
      expect(source.produced()).toBe(64 * MiB);
    } finally {
      server.close();
    }
  });
});
