import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../cli/index.js";
import type { CliIo } from "../../cli/io.js";
import { startHarness } from "./harness.js";
import type { Harness } from "./harness.js";
import { discover } from "./oauth-helpers.js";

function captureIo(): CliIo & { out_: string[]; err_: string[] } {
  const out_: string[] = [];
  const err_: string[] = [];
  return { out_, err_, out: (t) => void out_.push(t), err: (t) => void err_.push(t) };
}

describe("ovation client create", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it("registers a confidential client while the server runs; the printed credentials work at once", async () => {
    const io = captureIo();
    const status = await main(["client", "create", "--name", "Stream Deck", "--redirect-uri", "https://deck.example.com/cb"], io, { OVATION_DATA_DIR: h.dataDir });
    expect(io.err_).toEqual([]);
    expect(status).toBe(0);
    const id = /^client_id: (\S+)$/.exec(io.out_[0] ?? "")?.[1] ?? "";
    const secret = /^client_secret: (\S+)$/.exec(io.out_[1] ?? "")?.[1] ?? "";
    expect(secret).toMatch(/^ovcs_/);
    const config = await discover(h.base, id, secret);
    const tokens = await oidc.clientCredentialsGrant(config, { scope: "widgets:manage" });
    expect(tokens.scope).toBe("widgets:manage");

    const list = captureIo();
    expect(await main(["client", "list"], list, { OVATION_DATA_DIR: h.dataDir })).toBe(0);
    expect(list.out_.map((l) => JSON.parse(l) as { client_id: string; name: string })).toEqual(expect.arrayContaining([expect.objectContaining({ client_id: id, name: "Stream Deck" })]));
    expect(list.out_.join("\n")).not.toContain("secret_hash");
  });

  it("registers a public client without a secret", async () => {
    const io = captureIo();
    expect(await main(["client", "create", "--name", "SPA", "--redirect-uri", "http://127.0.0.1:5173/cb", "--public"], io, { OVATION_DATA_DIR: h.dataDir })).toBe(0);
    expect(io.out_[1]).toBe("client_secret: (none: public client, use PKCE S256)");
  });

  it("refuses bad command lines with exit status 2 and a message naming the problem", async () => {
    const cases: [string[], RegExp][] = [
      [["client", "create", "--redirect-uri", "https://x.example/cb"], /--name is required/],
      [["client", "create", "--name", "X"], /--redirect-uri is required/],
      [["client", "create", "--name", "X", "--redirect-uri", "not a url"], /redirect_uris\.0 field must be an absolute http\(s\) URL/],
      [["client", "create", "--name", "X", "--redirect-uri", "https://x.example/cb#frag"], /must not contain a fragment/],
      [["client", "create", "--name", "X", "--redirect-uri", "https://x.example/cb", "--bogus"], /bogus/],
      [["client", "delete"], /unknown subcommand "delete"/],
    ];
    for (const [argv, message] of cases) {
      const io = captureIo();
      expect(await main(argv, io, { OVATION_DATA_DIR: h.dataDir })).toBe(2);
      expect(io.err_.join("\n")).toMatch(message);
      expect(io.err_.join("\n")).toContain("OVATION_ERR_CLI_USAGE");
    }
  });
});
