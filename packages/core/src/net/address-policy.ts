import ipaddr from "ipaddr.js";
import { isIP } from "node:net";
import { NET_ERROR_CODES, NetError } from "./net-error.js";

/**
 * Which destinations template calls may reach. Public unicast addresses always pass; anything else
 * (loopback, private, link-local, CGNAT, multicast, unspecified, reserved, IPv4-mapped, NAT64,
 * 6to4, Teredo...) passes only when the host name or the address is allowlisted.
 */
export interface AddressPolicyOptions {
  /**
   * Entries that lift the refusal: a host name (`localhost`, matched case-insensitively, exactly),
   * an IP address (`127.0.0.1`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`).
   */
  allow?: readonly string[];
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A compiled allowlist with the address checks of outbound template calls. */
export class AddressPolicy {
  readonly #hosts = new Set<string>();
  readonly #ranges: Range[] = [];

  /** Throws `TypeError` naming the bad entry when an allowlist entry is neither a host, an IP nor a CIDR. */
  constructor(options: AddressPolicyOptions = {}) {
    for (const entry of options.allow ?? []) {
      const value = entry.trim().toLowerCase();
      if (value.includes("/")) {
        try {
          this.#ranges.push(ipaddr.parseCIDR(value));
        } catch {
          throw new TypeError(`allowlist entry "${entry}" is not a valid CIDR range`);
        }
      } else if (isIP(value) !== 0) {
        const address = ipaddr.parse(value);
        this.#ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
      } else if (/^[a-z0-9.-]+$/.test(value) && value.length <= 253) {
        this.#hosts.add(value.replace(/\.$/, ""));
      } else {
        throw new TypeError(`allowlist entry "${entry}" is neither a host name, an IP address nor a CIDR range`);
      }
    }
  }

  /** True when the host name itself is allowlisted (every address it resolves to is then permitted). */
  isHostAllowed(hostname: string): boolean {
    return this.#hosts.size > 0 && this.#hosts.has(hostname.toLowerCase().replace(/\.$/, ""));
  }

  /**
   * Throws a `NetError` (`OVATION_ERR_NET_ADDRESS_REFUSED`) naming the address and its range when
   * `address` may not be reached from `hostname`.
   */
  assertAddressAllowed(address: string, hostname: string): void {
    const reason = this.refusalReason(address, hostname);
    if (reason !== null) {
      throw new NetError(
        NET_ERROR_CODES.address,
        `refused: ${hostname} is ${address === hostname ? "" : `resolved to ${address}, `}${article(reason)} ${reason} address; template calls may only reach public addresses`,
        { details: { hostname, address, range: reason } },
      );
    }
  }

  /** Null when permitted, else the name of the refused range (`loopback`, `private`, `ipv4Mapped`...). */
  refusalReason(address: string, hostname: string): string | null {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.parse(address);
    } catch {
      return "malformed";
    }
    if (this.isHostAllowed(hostname)) return null;
    for (const range of this.#ranges) {
      if (parsed.kind() === range[0].kind() && parsed.match(range)) return null;
      // An allowlisted IPv4 range also covers its IPv4-mapped IPv6 form.
      if (parsed.kind() === "ipv6" && range[0].kind() === "ipv4") {
        const v6 = parsed as ipaddr.IPv6;
        if (v6.isIPv4MappedAddress() && v6.toIPv4Address().match(range)) return null;
      }
    }
    const name = parsed.range();
    // ipaddr.js calls the deprecated IPv4-compatible block ::/96 (inside the reserved ::/8) unicast.
    if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).parts[0] === 0 && name === "unicast") return "reserved (::/8, IPv4-compatible)";
    if (name === "unicast") return null;
    if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      return `IPv4-mapped (${(parsed as ipaddr.IPv6).toIPv4Address().toString()})`;
    }
    return RANGE_NAMES[name] ?? name;
  }
}

/** "an" before a range name read with a vowel sound (`an IPv4-mapped`, `an unspecified`), else "a". */
function article(reason: string): "a" | "an" {
  return /^(?:[aeioAEIO]|un(?!i))/.test(reason) ? "an" : "a";
}

const RANGE_NAMES: Record<string, string> = {
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  carrierGradeNat: "carrier-grade NAT (100.64.0.0/10)",
  multicast: "multicast",
  unspecified: "unspecified",
  broadcast: "broadcast",
  reserved: "reserved",
  uniqueLocal: "unique-local (fc00::/7)",
  rfc6052: "NAT64 (64:ff9b::/96)",
  rfc6145: "IPv4-translated",
  "6to4": "6to4",
  teredo: "Teredo",
};

/**
 * The host of a WHATWG-canonical URL as an IP literal, or null for a name. The URL parser has
 * already turned `2130706433`, `0177.0.0.1`, `127.1`, `0x7f.1` and `0` into dotted quads.
 */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname;
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  return isIP(bare) === 0 ? null : bare;
}
