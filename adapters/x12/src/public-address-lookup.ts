import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { classifyOutboundAddress } from "@openpractice/core";

/**
 * Why a clearinghouse an organisation set is refused before any byte is sent: its host is, or resolves only to,
 * an address that is not public (loopback, private, link-local such as cloud metadata...).
 */
export function literalAddressProblem(hostname: string, allowPrivate: boolean): string | undefined {
  const bare = hostname.replace(/^\[|\]$/g, "");
  if (isIP(bare) === 0) return undefined;
  const verdict = classifyOutboundAddress(bare, { allowPrivate });
  return verdict.allowed ? undefined : `${bare} is not a public address`;
}

/**
 * A DNS lookup for connections to a clearinghouse an organisation set through the API: only public addresses
 * (development also lets loopback and private ones through), checked after resolution, at connect time, so a
 * name that resolves inside cannot reach it.
 */
export function publicAddressLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      // One answer whether the name does not resolve or resolves inside: a tenant learns nothing of internal names.
      const usable = error ? [] : addresses.filter((a) => classifyOutboundAddress(a.address, { allowPrivate }).allowed);
      if (usable.length === 0) return callback(new Error(`${hostname} has no public address`), "", 4);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
