import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { afterAll, describe, expect, it } from "vitest";
import { GuardedHttpClient } from "../guarded-client.js";
import { NET_ERROR_CODES, NetError } from "../net-error.js";

/** Every way a URL can spell one IPv4 address that the WHATWG parser accepts. */
function spellings(octets: number[]): string[] {
  const [a, b, c, d] = octets as [number, number, number, number];
  const n = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
  const hex = (x: number) => `0x${x.toString(16)}`;
  const oct = (x: number) => `0${x.toString(8)}`;
  return [
    `${a}.${b}.${c}.${d}`,
    String(n),
    hex(n),
    `0${n.toString(8)}`,
    [a, b, c, d].map(oct).join("."),
    [a, b, c, d].map(hex).join("."),
    `${a}.${(b << 16) + (c << 8) + d}`,
    `${a}.${b}.${(c << 8) + d}`,
    `[::ffff:${a}.${b}.${c}.${d}]`,
    `[::ffff:${((a << 8) + b).toString(16)}:${((c << 8) + d).toString(16)}]`,
    `[64:ff9b::${a}.${b}.${c}.${d}]`,
  ];
}

function refused(client: GuardedHttpClient, url: string): boolean {
  try {
    client.checkUrl(url);
    return false;
  } catch (error) {
    return error instanceof NetError && error.code === NET_ERROR_CODES.address;
  }
}

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = fc.tuple(octet, octet, octet, octet);

describe("IP literal checks over every URL spelling (property)", () => {
  const client = new GuardedHttpClient();
  afterAll(() => client.close());

  it("refuses every spelling of a non-public IPv4 address", () => {
    const nonPublic = ipv4.filter((o) => ipaddr.fromByteArray(o).range() !== "unicast");
    fc.assert(
      fc.property(nonPublic, (octets) => {
        for (const host of spellings(octets)) expect(refused(client, `http://${host}/x`), host).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("accepts the plain and numeric spellings of public IPv4 addresses, and still refuses their IPv6 wrappings", () => {
    const publicAddress = ipv4.filter((o) => ipaddr.fromByteArray(o).range() === "unicast");
    fc.assert(
      fc.property(publicAddress, (octets) => {
        const all = spellings(octets);
        for (const host of all.slice(0, 8)) expect(refused(client, `http://${host}/x`), host).toBe(false);
        for (const host of all.slice(8)) expect(refused(client, `http://${host}/x`), host).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
