import { isIP } from 'node:net';

// Which addresses this server may connect to for a tenant's identity provider (issue 49, docs/sso.md "Providers on
// your intranet"). A tenant's system administrator names the provider's URL; without a rule, that administrator
// could make the server call its own loopback services, the cloud metadata address 169.254.169.254 or the intranet.
// Public unicast addresses are allowed; every other kind only on a network the operator opened with
// SSO_PROVIDER_NETWORKS (CIDR ranges and host names). The classification is by the address's bytes, so an IPv6
// address that carries an IPv4 one (mapped, compatible, NAT64, 6to4) is judged by the IPv4 address it carries.

/** What an address is: only 'public' is reached without the operator opening its network. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'shared' | 'unspecified' | 'multicast' | 'reserved';

/** The setting that opens networks to identity providers (apps/server/CONFIG.md). */
export const providerNetworksSetting = 'SSO_PROVIDER_NETWORKS';

type Bytes = readonly number[];

function ipv4Bytes(address: string): Bytes | null {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.map(Number);
}

/** The 16 bytes of an IPv6 address (a zone `%eth0` dropped), or null. */
function ipv6Bytes(text: string): Bytes | null {
  let address = text.replace(/%.*$/, '');
  const tail: number[] = [];
  const dotted = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = ipv4Bytes(dotted[1]!);
    if (!v4) return null;
    tail.push(...v4);
    address = `${address.slice(0, address.length - dotted[1]!.length)}0:0`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const bytes: number[] = [];
  for (const group of all) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (tail.length > 0) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Whether the first `prefix` bits of `bytes` are those of `network`. */
function inPrefix(bytes: Bytes, network: Bytes, prefix: number): boolean {
  for (let bit = 0; bit < prefix; bit += 8) {
    const take = Math.min(8, prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((network[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

const v4Kinds: [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network": 0.0.0.0 reaches this machine
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['169.254.0.0', 16, 'link-local'], // cloud metadata (169.254.169.254)
  ['100.64.0.0', 10, 'shared'], // carrier-grade NAT (RFC 6598)
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // and the broadcast 255.255.255.255
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
];

const v6Kinds: [string, number, AddressKind][] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'], // unique local
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  ['100::', 64, 'reserved'], // discard
  ['2001::', 32, 'reserved'], // Teredo (an IPv4 address hidden inside)
  ['2001:db8::', 32, 'reserved'], // documentation
];

const v4Table = v4Kinds.map(([network, prefix, kind]) => ({ network: ipv4Bytes(network)!, prefix, kind }));
const v6Table = v6Kinds.map(([network, prefix, kind]) => ({ network: ipv6Bytes(network)!, prefix, kind }));

/** The IPv4 address an IPv6 address carries: mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16. */
function embeddedIpv4(bytes: Bytes): Bytes | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12, 16);
  if (zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1)) return bytes.slice(12, 16);
  if (inPrefix(bytes, ipv6Bytes('64:ff9b::')!, 96)) return bytes.slice(12, 16);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return null;
}

function kindOfV4(bytes: Bytes): AddressKind {
  return v4Table.find((row) => inPrefix(bytes, row.network, row.prefix))?.kind ?? 'public';
}

/** An address as this module reads it: its family's bytes, and the IPv4 bytes it stands for (itself, or embedded). */
interface Parsed {
  family: 4 | 6;
  bytes: Bytes;
  v4: Bytes | null;
}

function parse(address: string): Parsed | null {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.replace(/%.*$/, ''));
  if (family === 4) {
    const bytes = ipv4Bytes(bare);
    return bytes ? { family: 4, bytes, v4: bytes } : null;
  }
  if (family === 6) {
    const bytes = ipv6Bytes(bare);
    return bytes ? { family: 6, bytes, v4: embeddedIpv4(bytes) } : null;
  }
  return null;
}

/** The kind of an IP address (IPv4, or IPv6 with or without brackets); null for something that is no address. */
export function addressKind(address: string): AddressKind | null {
  const parsed = parse(address);
  if (!parsed) return null;
  if (parsed.family === 4) return kindOfV4(parsed.bytes);
  // mapped, compatible, NAT64 and 6to4 addresses are what the IPv4 address they carry is
  if (parsed.v4) return kindOfV4(parsed.v4);
  return v6Table.filter((row) => inPrefix(parsed.bytes, row.network, row.prefix)).sort((a, b) => b.prefix - a.prefix)[0]?.kind ?? 'public';
}

/** One item of SSO_PROVIDER_NETWORKS: a range (an address is a range of one) or a host name. */
type NetworkItem = { range: { family: 4 | 6; bytes: Bytes; prefix: number } } | { host: string };

/** Why an item is not one, or the item. */
function parseItem(raw: string): NetworkItem | { problem: string } {
  const item = raw.trim().toLowerCase();
  if (item === '') return { problem: 'is empty' };
  const slash = item.indexOf('/');
  const addressPart = slash < 0 ? item : item.slice(0, slash);
  const parsed = parse(addressPart);
  if (parsed) {
    const max = parsed.family === 4 ? 32 : 128;
    let prefix = max;
    if (slash >= 0) {
      const text = item.slice(slash + 1);
      if (!/^\d{1,3}$/.test(text) || Number(text) > max) return { problem: `has a prefix length that is not 0–${max}` };
      prefix = Number(text);
    }
    return { range: { family: parsed.family, bytes: parsed.bytes, prefix } };
  }
  if (slash >= 0) return { problem: 'is not an address/prefix range' };
  const host = item.replace(/\.$/, '');
  if (host.length > 253 || !/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) {
    return { problem: 'is neither an address, an address/prefix range nor a host name (no scheme, port or wildcard)' };
  }
  return { host };
}

/** SSO_PROVIDER_NETWORKS as written: the items (trimmed, lowercase), or the first bad one and why. */
export function parseProviderNetworks(raw: string): { items: string[] } | { item: string; problem: string } {
  const items: string[] = [];
  for (const piece of raw.split(',')) {
    const parsed = parseItem(piece);
    if ('problem' in parsed) return { item: piece.trim(), problem: parsed.problem };
    items.push(piece.trim().toLowerCase());
  }
  return { items: [...new Set(items)] };
}

/**
 * The operator's rule for a provider's addresses: a public unicast address is allowed; any other only when it lies
 * in an opened range, or when the URL's host is an opened host name (whatever that name resolves to).
 */
export class ProviderNetworkPolicy {
  private readonly ranges: { family: 4 | 6; bytes: Bytes; prefix: number }[] = [];
  private readonly hosts = new Set<string>();

  /** `items`: SSO_PROVIDER_NETWORKS as config.ts checked it (an item that is none of these is ignored). */
  constructor(items: readonly string[] = []) {
    for (const raw of items) {
      const item = parseItem(raw);
      if ('range' in item) this.ranges.push(item.range);
      else if ('host' in item) this.hosts.add(item.host);
    }
  }

  /** Whether the server may connect to `address` for a URL naming `hostname`. */
  allows(hostname: string, address: string): boolean {
    const parsed = parse(address);
    if (!parsed) return false;
    if (addressKind(address) === 'public') return true;
    if (this.hosts.has(hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, ''))) return true;
    return this.ranges.some((range) => {
      if (range.family === parsed.family && inPrefix(parsed.bytes, range.bytes, range.prefix)) return true;
      // an IPv4 range opens the IPv6 forms of its addresses (::ffff:10.0.0.5) too
      return range.family === 4 && parsed.family === 6 && parsed.v4 !== null && inPrefix(parsed.v4, range.bytes, range.prefix);
    });
  }
}
