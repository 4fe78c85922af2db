import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link, useLocation } from "wouter-preact";
import { useApp } from "../app-context.js";
import type { TokenSet } from "../auth/oauth.js";
import { useChannel } from "../channel.js";
import type { DashboardPage } from "../pages/kit/page.js";
import { navigationGroups } from "../pages/kit/navigation.js";
import { PAGES } from "../pages/registry.js";
import { applyTheme, effectiveTheme, storedTheme } from "../ui/theme.js";
import type { ThemeChoice } from "../ui/theme.js";

function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme());
  const next: ThemeChoice = effectiveTheme(choice) === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      class="icon-button theme-toggle"
      aria-label={`Switch to the ${next} theme`}
      title={`Switch to the ${next} theme`}
      onClick={() => {
        applyTheme(next);
        setChoice(next);
      }}
    >
      <span aria-hidden="true">{next === "dark" ? "☾" : "☀"}</span>
    </button>
  );
}

function UserMenu({ tokens }: { tokens: TokenSet }) {
  const { session } = useApp();
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    session
      .accessToken()
      .then((token) => session.oauth.userInfo(token, tokens.subject))
      .then(
      (info) => !cancelled && setName(info.name ?? info.email),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // The user does not change while signed in; a token refresh must not refetch.
  }, [session, tokens.subject]);
  return (
    <div class="user-menu">
      <span class="user-name" data-testid="user-name">
        {name ?? ""}
      </span>
      <button type="button" class="button secondary small" onClick={() => void session.signOut()}>
        Sign out
      </button>
    </div>
  );
}

/** The channel switcher: shown to users who manage other channels; it changes which channel the pages of their role act on. */
function ChannelSwitcher() {
  const { channel, channels, select } = useChannel();
  if (channels.length === 0) return null;
  return (
    <label class="channel-switcher">
      <span class="visually-hidden">Channel</span>
      <select
        aria-label="Channel"
        data-testid="channel-switcher"
        value={channel === null ? "" : String(channel.user_id)}
        onChange={(event) => {
          const value = (event.currentTarget as HTMLSelectElement).value;
          select(value === "" ? null : Number(value));
        }}
      >
        <option value="">Your channel</option>
        {channels.map((c) => (
          <option key={c.user_id} value={String(c.user_id)}>
            {c.name} ({c.role})
          </option>
        ))}
      </select>
    </label>
  );
}

/** Whether `page` works on the chosen channel: always on the user's own; on a managed one, when the role grants its scope. */
export function pageAllowed(page: DashboardPage | null, scopes: readonly string[] | null): boolean {
  if (scopes === null) return true;
  return page?.managedScope !== undefined && scopes.includes(page.managedScope);
}

/** What a manager sees on a page their role on the chosen channel does not cover. */
function Refused({ title }: { title: string }) {
  const { channel, select } = useChannel();
  return (
    <div class="card stack" role="alert" data-testid="managed-refusal">
      <p>
        {title} is not part of what you manage on {channel?.name}'s channel (your role: {channel?.role}). Managers never reach a streamer's security, tokens, connections or account.
      </p>
      <div class="actions">
        <button type="button" class="button secondary" onClick={() => select(null)}>
          Back to your channel
        </button>
      </div>
    </div>
  );
}

/** Header, navigation (a drawer below 800 px) and the page's main region with its `<h1>`. */
export function Layout({ title, tokens, page = null, children }: { title: string; tokens: TokenSet; page?: DashboardPage | null; children: ComponentChildren }) {
  const [location] = useLocation();
  const { channel } = useChannel();
  const scopes = channel === null ? null : channel.scopes;
  const [navOpen, setNavOpen] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  useEffect(() => {
    document.title = `${title} · Ovation`;
    setNavOpen(false);
    // After a navigation (not the first render), screen readers land on the new page's heading.
    if (!first.current) heading.current?.focus();
    first.current = false;
  }, [location, title]);
  useEffect(() => {
    if (!navOpen) return;
    // Escape closes the phone drawer, as it closes a dialog.
    const close = (event: KeyboardEvent) => {
      if (event.key === "Escape") setNavOpen(false);
    };
    document.addEventListener("keydown", close);
    return () => document.removeEventListener("keydown", close);
  }, [navOpen]);
  return (
    <div class="shell" data-nav-open={navOpen ? "true" : "false"}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <button type="button" class="icon-button nav-toggle" aria-label="Menu" aria-expanded={navOpen} aria-controls="primary-nav" onClick={() => setNavOpen(!navOpen)}>
          <span aria-hidden="true">☰</span>
        </button>
        <Link href="/" class="brand">
          <span class="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          Ovation
        </Link>
        <div class="topbar-end">
          <ChannelSwitcher />
          <ThemeToggle />
          <UserMenu tokens={tokens} />
        </div>
      </header>
      <nav id="primary-nav" class="sidebar" aria-label="Dashboard">
        {channel !== null && (
          <p class="nav-channel" data-testid="nav-channel">
            Managing <strong>{channel.name}</strong> as {channel.role}
          </p>
        )}
        {navigationGroups(PAGES, (p) => pageAllowed(p, scopes)).map((group) => (
          <div class="nav-group" key={group.name}>
            <p class="nav-group-title" id={`nav-${group.name}`}>
              {group.name}
            </p>
            <ul aria-labelledby={`nav-${group.name}`}>
              {group.pages.map((page) => {
                const href = page.path;
                const current = href === "/" ? location === "/" : location === href || location.startsWith(`${href}/`);
                return (
                  <li key={page.id}>
                    <Link href={href} class="nav-link" data-page={page.id} aria-current={current ? "page" : undefined}>
                      {page.nav?.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        ))}
      </nav>
      <main id="main" class="content" tabIndex={-1}>
        <h1 ref={heading} tabIndex={-1} class="page-title">
          {title}
        </h1>
        {pageAllowed(page, scopes) ? children : <Refused title={title} />}
      </main>
    </div>
  );
}
