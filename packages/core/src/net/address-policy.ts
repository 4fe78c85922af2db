import ipaddr from "ipaddr.js";
import { isIP } from "node:net";
import { networkInterfaces } from "node:os";
import { NET_ERROR_CODES, NetError } from "./net-error.js";

/**
 * Which destinations template calls may reach. Public unicast addresses always pass; anything else
 * (loopback, private, link-local, CGNAT, multicast, unspecified, reserved, IPv4-mapped, NAT64,
 * 6to4, Teredo...) passes only when the host name or the address is allowlisted.
 */
export interface AddressPolicyOptions {
  /**
   * Entries that lift the refusal: a host name (`localhost`, matched case-insensitively, exactly),
   * an IP address (`127.0.0.1`, `::1`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`). A host or address
   * may name a port (`localhost:8080`, `[::1]:8080`): that entry also opens that port when it is one
   * of `selfPorts`.
   */
  allow?: readonly string[];
  /**
   * The ports the embedding server itself listens on (Ovation's API). An address of this machine
   * (loopback, unspecified, any local interface) on one of them is refused even when allowlisted,
   * unless an entry names that host or address WITH that port: allowing `localhost` for a local
   * service must not let templates call the server's own API.
   */
  selfPorts?: () => readonly number[];
}

/** Whether `parsed` is an address of this machine: loopback, unspecified, or a local interface's. */
function isOwnAddress(parsed: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  const address = parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
  const range = address.range();
  if (range === "loopback" || range === "unspecified") return true;
  const text = address.toNormalizedString();
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) {
      try {
        if (ipaddr.parse(info.address.split("%")[0] ?? "").toNormalizedString() === text) return true;
      } catch {
        // an interface address ipaddr.js cannot read is not ours to compare
      }
    }
  }
  return false;
}

/** `host:port`, `ip:port` or `[ipv6]:port` split, or null when the entry names no port. */
function splitPort(value: string): { host: string; port: number } | null {
  const match = /^\[([0-9a-f:.]+)\]:(\d{1,5})$/.exec(value) ?? /^([^:[\]]+):(\d{1,5})$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535 ? { host: match[1], port } : null;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A compiled allowlist with the address checks of outbound template calls. */
export class AddressPolicy {
  readonly #hosts = new Set<string>();
  readonly #ranges: Range[] = [];
  /** `host:port` / `address:port` pairs named explicitly (normalised). */
  readonly #namedPorts = new Set<string>();
  readonly #selfPorts: () => readonly number[];

  /** Throws `TypeError` naming the bad entry when an allowlist entry is neither a host, an IP nor a CIDR. */
  constructor(options: AddressPolicyOptions = {}) {
    this.#selfPorts = options.selfPorts ?? (() => []);
    for (const entry of options.allow ?? []) {
      let value = entry.trim().toLowerCase();
      const withPort = splitPort(value);
      if (withPort !== null) {
        value = withPort.host;
        this.#namedPorts.add(`${normalizeHost(value)}:${withPort.port}`);
      }
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

  /**
   * Throws a `NetError` (`OVATION_ERR_NET_ADDRESS_REFUSED`) when `address` is this machine and `port`
   * one of the server's own ports, unless the allowlist names `hostname:port` or `address:port`.
   */
  assertNotSelf(address: string, hostname: string, port: number): void {
    if (!this.#selfPorts().includes(port)) return;
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      parsed = ipaddr.parse(address);
    } catch {
      return; // refusalReason reports malformed addresses
    }
    if (!isOwnAddress(parsed)) return;
    if (this.#namedPorts.has(`${normalizeHost(hostname)}:${port}`) || this.#namedPorts.has(`${normalizeHost(address)}:${port}`)) return;
    throw new NetError(
      NET_ERROR_CODES.address,
      `refused: ${hostname}:${port} is this Ovation server's own API; templates may call it only when the allowlist names ${hostname}:${port} explicitly`,
      { details: { hostname, address, port, range: "self" } },
    );
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

/** A host name lowercased without its trailing dot, or an IP address in normalised form. */
function normalizeHost(host: string): string {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return ipaddr.parse(bare).toNormalizedString();
  return bare.toLowerCase().replace(/\.$/, "");
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
