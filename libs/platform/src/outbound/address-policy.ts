import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  readonly allowPrivate: boolean;
  readonly allowedCidrs: readonly string[];
}

/**
 * Whether a webhook may connect to `address` (an IP literal, as resolved): only public unicast
 * addresses, unless private ones are allowed or the address is in an allowed range. IPv4-mapped
 * IPv6 addresses are judged as the IPv4 address they carry.
 */
export function isAllowedAddress(address: string, policy: AddressPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (policy.allowPrivate) return true;
  for (const cidr of policy.allowedCidrs) {
    const [range, bits] = ipaddr.parseCIDR(cidr);
    if (range.kind() === parsed.kind() && parsed.match([range, bits])) return true;
  }
  return parsed.range() === 'unicast';
}

/** Why an address is refused, for the delivery log. */
export function refusalReason(address: string): string {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return `${address} is a ${parsed.range()} address; set WEBHOOK_ALLOW_PRIVATE=true or WEBHOOK_ALLOWED_CIDRS to allow it`;
}
