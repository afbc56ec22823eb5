import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { EligibilityGatewayError } from "@openpractice/core";
import { describe, expect, it } from "vitest";
import type { Clearinghouse } from "./clearinghouse.js";
import { postToClearinghouse } from "./clearinghouse-transport.js";

const base: Clearinghouse = {
  url: "https://127.0.0.1:9/realtime",
  username: "u",
  password: "p",
  submitterId: "S",
  receiverId: "R",
  providerNpi: "1234567893",
  providerName: "Lakeview",
  timeoutMs: 2000,
};

/** Whether a connection was attempted: a listener counts the sockets that reach it. */
async function withListener(run: (port: number) => Promise<void>): Promise<number> {
  let connections = 0;
  const server = createServer();
  server.on("connection", (socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await run((server.address() as AddressInfo).port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return connections;
}

// A clearinghouse an organisation set through the API reaches public addresses only: the host's own (the
// operator's environment variable) may be anywhere, and development lets private ones through.
describe("the clearinghouse transport's address policy", () => {
  it("refuses a tenant's clearinghouse on a loopback literal or a name resolving to loopback, before connecting", async () => {
    const connections = await withListener(async (port) => {
      for (const host of [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "10.0.0.1",
        "169.254.169.254",
        "[fc00::1]",
      ]) {
        const refused = postToClearinghouse(
          { ...base, url: `https://${host}:${port}/rt`, tenantSupplied: true },
          "ISA",
        );
        await expect(refused).rejects.toBeInstanceOf(EligibilityGatewayError);
        await expect(refused).rejects.toMatchObject({ kind: "unavailable" });
        await expect(refused).rejects.toThrow(/(not a public address|has no public address)/);
      }
    });
    expect(connections).toBe(0);
  });

  it("connects to the operator's clearinghouse, and a tenant's in development, on loopback", async () => {
    const connections = await withListener(async (port) => {
      const url = `https://127.0.0.1:${port}/rt`;
      // The listener drops the socket: a connection was made, then the exchange failed.
      await expect(postToClearinghouse({ ...base, url }, "ISA")).rejects.toMatchObject({ kind: "unavailable" });
      await expect(
        postToClearinghouse({ ...base, url, tenantSupplied: true }, "ISA", { allowPrivateAddresses: true }),
      ).rejects.toMatchObject({ kind: "unavailable" });
    });
    expect(connections).toBe(2);
  });
});
