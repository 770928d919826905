import { BlockList, isIP } from 'node:net';

/**
 * Whether a caller's address is one of `items` (addresses and CIDR ranges, as config checked them). An IPv4 address
 * a dual-stack socket shows as ::ffff:a.b.c.d is that IPv4 address.
 */
export function addressAllowList(items: readonly string[]): (ip: string) => boolean {
  const list = new BlockList();
  for (const item of items) {
    const [address = '', prefix] = item.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (ip) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped?.[1] !== undefined) return list.check(mapped[1], 'ipv4');
    const family = isIP(ip);
    if (family === 0) return false;
    return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}
