/** IPv4 CIDR allowlist: requests from these networks are never limited. */

interface Network {
  base: number;
  mask: number;
}

function ipv4ToInt(ip: string): number | undefined {
  const parts = ip.split(".");
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const b = Number(p);
    if (b > 255) return undefined;
    n = (n << 8) | b;
  }
  return n >>> 0;
}

export function parseCidr(cidr: string): Network {
  const [ip, bitsText = "32"] = cidr.trim().split("/");
  const base = ipv4ToInt(ip);
  const bits = Number(bitsText);
  if (base === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) {
    throw new Error(`not an IPv4 CIDR: ${cidr}`);
  }
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { base: (base & mask) >>> 0, mask };
}

export class Allowlist {
  private readonly networks: Network[];

  constructor(entries: string[]) {
    this.networks = entries.map(parseCidr);
  }

  has(ip: string): boolean {
    const n = ipv4ToInt(ip);
    if (n === undefined) return false;
    return this.networks.some((net) => ((n & net.mask) >>> 0) === net.base);
  }

  get size(): number {
    return this.networks.length;
  }
}
