import { describe, expect, it } from "vitest";
import { BrowserSourcePageError, assetsDir, renderBrowserSourceErrorPage, renderBrowserSourcePage } from "../index.js";
import type { BrowserSourceBootstrap } from "../index.js";
import { jsonForScriptElement } from "../html.js";

const bootstrap: BrowserSourceBootstrap = {
  type: "alerts",
  access_token: "3f1c2b9e-7a61-4c3e-9a55-1d2e3f405162",
  api_base: "https://ovation.example.com",
  socket_url: "https://socket.example.com:8443",
};

function bootstrapJson(html: string): unknown {
  const match = /<script type="application\/json" id="ovation-bootstrap">([^<]*)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error("no bootstrap element");
  return JSON.parse(match[1]);
}

function csp(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  if (!match?.[1]) throw new Error("no CSP meta");
  return match[1].replaceAll("&#39;", "'");
}

describe("renderBrowserSourcePage", () => {
  it("embeds the bootstrap as JSON the page can parse back", () => {
    expect(bootstrapJson(renderBrowserSourcePage(bootstrap))).toEqual(bootstrap);
  });

  it("loads its assets from {api_base}/browser-source/assets and nothing external", () => {
    const html = renderBrowserSourcePage(bootstrap);
    expect(html).toContain(`src="https://ovation.example.com/browser-source/assets/app.js"`);
    expect(html).toContain(`href="https://ovation.example.com/browser-source/assets/app.css"`);
    const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((url) => url !== "data:,");
    expect(urls.every((url) => url?.startsWith("https://ovation.example.com/browser-source/assets/"))).toBe(true);
  });

  it("sets a strict policy: scripts, styles and connections only from self and the api/socket origins", () => {
    const policy = csp(renderBrowserSourcePage(bootstrap));
    const directives = new Map(policy.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)]));
    expect(directives.get("default-src")).toEqual(["'none'"]);
    const script = directives.get("script-src") ?? [];
    expect(script.filter((s) => !s.startsWith("'nonce-"))).toEqual(["'self'", "https://ovation.example.com", "https://socket.example.com:8443"]);
    expect(script.some((s) => s === "'unsafe-inline'" || s === "'unsafe-eval'" || s === "*")).toBe(false);
    expect(directives.get("connect-src")).toEqual([
      "'self'",
      "https://ovation.example.com",
      "https://socket.example.com:8443",
      "wss://ovation.example.com",
      "wss://socket.example.com:8443",
    ]);
    expect(directives.get("object-src")).toEqual(["'none'"]);
    expect(directives.get("base-uri")).toEqual(["'none'"]);
  });

  it("uses a fresh nonce per render, the same one on the script and in the policy", () => {
    const first = renderBrowserSourcePage(bootstrap);
    const second = renderBrowserSourcePage(bootstrap);
    const nonceOf = (html: string) => /id="ovation-app" nonce="([^"]+)"/.exec(html)?.[1];
    expect(nonceOf(first)).toBeTruthy();
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(csp(first)).toContain(`'nonce-${nonceOf(first)}'`);
  });

  it("keeps hostile values inside the JSON element", () => {
    const html = renderBrowserSourcePage({ ...bootstrap, api_base: "https://ovation.example.com/</script><script>alert(1)</script>" });
    expect(html.match(/<script/g)?.length).toBe(2);
    expect(html).not.toContain("<script>alert(1)");
  });

  it("drops a trailing slash of api_base so asset and config paths stay clean", () => {
    const html = renderBrowserSourcePage({ ...bootstrap, api_base: "https://ovation.example.com/" });
    expect(bootstrapJson(html)).toMatchObject({ api_base: "https://ovation.example.com" });
  });

  it("refuses unusable input with an error naming the field", () => {
    const bad: [Partial<BrowserSourceBootstrap>, string][] = [
      [{ type: "widgets" as BrowserSourceBootstrap["type"] }, "type"],
      [{ access_token: "" }, "access_token"],
      [{ access_token: "abc def" }, "access_token"],
      [{ api_base: "/relative" }, "api_base"],
      [{ socket_url: "javascript:alert(1)" }, "socket_url"],
      [{ api_base: "https://a.example/?x=1" }, "api_base"],
    ];
    for (const [patch, field] of bad) {
      let caught: unknown;
      try {
        renderBrowserSourcePage({ ...bootstrap, ...patch });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(BrowserSourcePageError);
      expect((caught as BrowserSourcePageError).code).toBe("OVATION_ERR_BROWSER_SOURCE_BOOTSTRAP");
      expect((caught as BrowserSourcePageError).details.field).toBe(field);
    }
  });
});

describe("renderBrowserSourceErrorPage", () => {
  it("shows the message as text, with no script and no data", () => {
    const html = renderBrowserSourceErrorPage("Browser source not found", "Token <b>revoked</b>");
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("Token &lt;b&gt;revoked&lt;/b&gt;");
    expect(html).toContain("default-src 'none'");
  });
});

describe("assetsDir", () => {
  it("is the absolute dist/assets directory of the package", () => {
    expect(assetsDir).toMatch(/apps\/browser-source\/dist\/assets\/?$/);
  });
});

describe("jsonForScriptElement", () => {
  it("escapes everything that could end a script element or open a comment, and round-trips", () => {
    const value = { a: "</script><!-- & \u2028 \u2029 >" };
    const json = jsonForScriptElement(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
