import { BlockList, isIP } from 'node:net';

/** Loopback, private, link-local, carrier-grade NAT, multicast and unspecified ranges. */
function privateRanges(): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of [
    ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
    ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
  ] as const) list.addSubnet(net, prefix, 'ipv4');
  // Also NAT64 (64:ff9b::/96) and 6to4 (2002::/16), which embed IPv4 addresses, and IPv4-compatible ::/96.
  for (const [net, prefix] of [['::', 96], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2002::', 16]] as const) {
    list.addSubnet(net, prefix, 'ipv6');
  }
  return list;
}

const BLOCKED = privateRanges();

/** Whether outbound calls may reach `address` only when the operator allows private networks. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  // BlockList applies IPv4 rules to IPv4-mapped IPv6 addresses (::ffff:7f00:1 is 127.0.0.1).
  return family === 4 ? BLOCKED.check(address, 'ipv4') : family === 6 ? BLOCKED.check(address, 'ipv6') : false;
}
