import { describe, expect, it } from "vitest";
import { classifyOutboundAddress } from "./outbound-address.js";

// address, range ipaddr.js names (with the embedded IPv4 address's range after the arrow), allowed in production, allowed in development
const TABLE: Array<[string, string, boolean, boolean]> = [
  // public unicast: the only addresses production posts to
  ["8.8.8.8", "unicast", true, true],
  ["93.184.216.34", "unicast", true, true],
  ["2606:4700:4700::1111", "unicast", true, true],
  ["2a00:1450:4001::1", "unicast", true, true],
  // the old table's ranges
  ["127.0.0.1", "loopback", false, true],
  ["127.255.255.254", "loopback", false, true],
  ["::1", "loopback", false, true],
  ["10.1.2.3", "private", false, true],
  ["172.16.0.1", "private", false, true],
  ["172.31.255.255", "private", false, true],
  ["192.168.1.1", "private", false, true],
  ["100.64.0.1", "carrierGradeNat", false, true],
  ["fc00::1", "uniqueLocal", false, true],
  ["fd12:3456::1", "uniqueLocal", false, true],
  ["0.0.0.0", "unspecified", false, false],
  ["0.1.2.3", "unspecified", false, false],
  ["::", "unspecified", false, false],
  ["169.254.169.254", "linkLocal", false, false],
  ["fe80::1", "linkLocal", false, false],
  ["::ffff:10.0.0.1", "ipv4Mapped → private", false, true],
  ["::ffff:169.254.169.254", "ipv4Mapped → linkLocal", false, false],
  ["::ffff:8.8.8.8", "ipv4Mapped → unicast", true, true],
  // the ranges the hand-kept table missed
  ["64:ff9b::7f00:1", "rfc6052 → loopback", false, true],
  ["64:ff9b::a9fe:a9fe", "rfc6052 → linkLocal", false, false],
  ["64:ff9b::808:808", "rfc6052 → unicast", true, true],
  ["64:ff9b:1::a00:1", "rfc6052", false, false],
  ["2002:7f00:1::", "6to4 → loopback", false, true],
  ["2002:a9fe:a9fe::1", "6to4 → linkLocal", false, false],
  ["2002:c0a8:101::1", "6to4 → private", false, true],
  ["2002:808:808::1", "6to4 → unicast", true, true],
  ["::127.0.0.1", "ipv4Compatible → loopback", false, true],
  ["::169.254.169.254", "ipv4Compatible → linkLocal", false, false],
  ["::10.0.0.1", "ipv4Compatible → private", false, true],
  ["fec0::1", "deprecatedSiteLocal", false, false],
  ["feff::1", "deprecatedSiteLocal", false, false],
  ["198.18.0.1", "reserved", false, false],
  ["198.19.255.255", "reserved", false, false],
  ["224.0.0.1", "multicast", false, false],
  ["239.255.255.250", "multicast", false, false],
  ["ff02::1", "multicast", false, false],
  ["ff05::1:3", "multicast", false, false],
  ["240.0.0.1", "reserved", false, false],
  ["254.1.2.3", "reserved", false, false],
  ["255.255.255.255", "broadcast", false, false],
  // other special ranges the library knows
  ["192.0.2.1", "reserved", false, false],
  ["203.0.113.9", "reserved", false, false],
  ["2001:db8::1", "reserved", false, false],
  ["2001::1", "teredo", false, false],
  ["100::1", "discard", false, false],
  ["4000::1", "notGlobalUnicast", false, false],
  ["not-an-address", "invalid", false, false],
];

describe("outbound address classification", () => {
  it.each(TABLE)(
    "%s is %s (production allows: %s, development allows: %s)",
    (address, range, production, development) => {
      expect(classifyOutboundAddress(address, { allowPrivate: false })).toEqual({ allowed: production, range });
      expect(classifyOutboundAddress(address, { allowPrivate: true })).toEqual({ allowed: development, range });
    },
  );
});
