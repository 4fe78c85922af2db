import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { Link, useLocation } from "wouter-preact";
import { useApp } from "../app-context.js";
import type { TokenSet } from "../auth/oauth.js";
import { navigationGroups } from "../pages/registry.js";
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

/** Header, navigation (a drawer below 800 px) and the page's main region with its `<h1>`. */
export function Layout({ title, tokens, children }: { title: string; tokens: TokenSet; children: ComponentChildren }) {
  const [location] = useLocation();
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
          <ThemeToggle />
          <UserMenu tokens={tokens} />
        </div>
      </header>
      <nav id="primary-nav" class="sidebar" aria-label="Dashboard">
        {navigationGroups().map((group) => (
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
        {children}
      </main>
    </div>
  );
}
