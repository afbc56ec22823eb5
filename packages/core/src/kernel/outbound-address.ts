import ipaddr from "ipaddr.js";

/** Ranges a development deployment may reach, so local receivers work: loopback, private, carrier-grade NAT, unique local. */
const DEVELOPMENT_RANGES = new Set(["loopback", "private", "carrierGradeNat", "uniqueLocal"]);

export interface AddressVerdict {
  allowed: boolean;
  /** ipaddr.js's name of the range that decided ("unicast", "loopback", "linkLocal", "6to4 → private"...), or "invalid". */
  range: string;
}

/** ipaddr.js reads any IPv6 text with a dotted tail as IPv4-mapped (::127.0.0.1 becomes ::ffff:7f00:1); hex digits keep it exact. */
function hexTail(address: string): string {
  return address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_m, a, b, c, d) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
}

/** The IPv4 address an IPv6 address carries, by its kind: mapped, IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4. */
function embeddedIpv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const p = address.parts;
  const low32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (range === "ipv4Mapped" || range === "rfc6145") return low32();
  if (range === "rfc6052" && address.match(ipaddr.IPv6.parse("64:ff9b::"), 96)) return low32();
  if (range === "6to4") return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff]);
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291): ::/96 other than :: and ::1, which have their own ranges.
  if (range === "unicast" && address.match(ipaddr.IPv6.parse("::"), 96)) return low32();
  return null;
}

/**
 * Whether an outbound request (a webhook, a push message) may connect to
 * `address`, an IP literal: only public unicast addresses, by ipaddr.js's
 * range classification, so loopback, private, link-local (cloud metadata),
 * CGNAT, multicast, broadcast, benchmarking (198.18.0.0/15), reserved
 * (240.0.0.0/4, documentation), site-local (fec0::/10) and every other special
 * range are refused. IPv6 addresses that carry an IPv4 address (mapped,
 * IPv4-compatible, NAT64, 6to4) are judged by that address; IPv6 outside
 * global unicast (2000::/3) is refused. `allowPrivate` (development) lets
 * loopback, private, CGNAT and unique-local addresses through.
 */
export function classifyOutboundAddress(address: string, o: { allowPrivate: boolean }): AddressVerdict {
  if (!ipaddr.isValid(address)) return { allowed: false, range: "invalid" };
  const parsed = ipaddr.parse(address.includes(":") ? hexTail(address) : address);
  let range: string = parsed.range();
  if (parsed.kind() === "ipv6") {
    const v4 = embeddedIpv4(parsed as ipaddr.IPv6, range);
    if (v4) {
      const inner = classifyOutboundAddress(v4.toString(), o);
      return { allowed: inner.allowed, range: `${range === "unicast" ? "ipv4Compatible" : range} → ${inner.range}` };
    }
    if (range === "unicast" && !parsed.match(ipaddr.IPv6.parse("2000::"), 3)) range = "notGlobalUnicast";
  }
  return { allowed: range === "unicast" || (o.allowPrivate && DEVELOPMENT_RANGES.has(range)), range };
}
