import { LinkifyIt } from "linkify-it";
import tlds from "tlds" with { type: "json" };

/** Finds links with or without a scheme (`example.com/x`, `www.x.y`, `https://…`, bare IP addresses), using IANA's TLD list. */
const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyIP: true, fuzzyEmail: false }).tlds(tlds, false);

/** A domain as users write it in `allowed_domains`: `example.com` (lowercase letters, digits, `-`, dots). */
export const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** The host names of the links in `text`, lowercased (internationalised and fullwidth forms folded). */
export function linkHosts(text: string): string[] {
  // Every link has a dot (host names, IP addresses) or a colon (a scheme): most chat has neither.
  if (!/[.:\uFF0E\u3002]/.test(text)) return [];
  const hosts: string[] = [];
  for (const match of linkify.match(text) ?? []) {
    try {
      const host = new URL(match.url).hostname.toLowerCase().replace(/\.$/, "");
      if (host !== "") hosts.push(host);
    } catch {
      hosts.push(match.text.toLowerCase());
    }
  }
  return hosts;
}

/** True when `host` is one of `domains` or a subdomain of one (`clips.twitch.tv` is under `twitch.tv`). */
export function isAllowedHost(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** `text` with every link (the same detection as {@link linkHosts}) replaced by `replacement`. */
export function stripLinks(text: string, replacement = " "): string {
  if (!/[.:\uFF0E\u3002]/.test(text)) return text;
  const matches = linkify.match(text) ?? [];
  let out = "";
  let cursor = 0;
  for (const match of matches) {
    out += text.slice(cursor, match.index) + replacement;
    cursor = match.lastIndex;
  }
  return out + text.slice(cursor);
}
