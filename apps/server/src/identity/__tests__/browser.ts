/** A tiny cookie-keeping HTTP client that follows nothing by itself: tests drive each redirect. */
export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  /** The cookie header value for every cookie kept. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** A kept cookie's value. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request(url: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (init.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(url, { method: init.method ?? (init.form !== undefined ? "POST" : "GET"), headers, body, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair?.indexOf("=") ?? -1;
      if (pair === undefined || eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split("=")[1] ?? "") < Date.now()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Follows redirects on `base` until one leaves it (returned) or a page answers (returned). */
  async follow(url: string, base: string, limit = 10): Promise<{ response: Response; url: string }> {
    let current = url;
    for (let i = 0; i < limit; i += 1) {
      const response = await this.request(current);
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || location === null) return { response, url: current };
      const next = new URL(location, current).href;
      if (!next.startsWith(base)) return { response, url: next };
      current = next;
    }
    throw new Error(`more than ${limit} redirects from ${url}`);
  }
}

/** Follows redirects across hosts until a page answers or a redirect points at `stopPrefix`. */
export async function followAcross(browser: TestBrowser, url: string, stopPrefix: string, limit = 12): Promise<{ response: Response; url: string }> {
  let current = url;
  for (let i = 0; i < limit; i += 1) {
    const response = await browser.request(current);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || location === null) return { response, url: current };
    const next = new URL(location, current).href;
    if (next.startsWith(stopPrefix)) return { response, url: next };
    current = next;
  }
  throw new Error(`more than ${limit} redirects from ${url}`);
}

/** The `action` of the first form whose action contains `fragment`. */
export function formAction(html: string, fragment: string, base: string): string {
  const match = [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1] ?? "").find((a) => a.includes(fragment));
  if (!match) throw new Error(`no form with ${fragment} in page`);
  return new URL(match.replace(/&amp;/g, "&"), base).href;
}
