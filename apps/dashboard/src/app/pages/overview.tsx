import { Link } from "wouter-preact";
import { useApp } from "../app-context.js";
import { navigationGroups } from "./kit/navigation.js";
import { definePage } from "./kit/page.js";
import type { DashboardPage } from "./kit/page.js";

function Overview({ sections }: { sections: readonly DashboardPage[] }) {
  const { boot } = useApp();
  return (
    <div class="stack">
      <p class="lead">Everything Ovation does for your stream, in one place.</p>
      <div class="card-grid">
        {navigationGroups(sections)
          .flatMap((g) => g.pages)
          .map((page) => (
            <Link key={page.id} href={page.path} class="card card-link">
              <span class="card-title">{page.nav?.label}</span>
              <span class="muted">{page.nav?.group}</span>
            </Link>
          ))}
      </div>
      <section class="card" aria-labelledby="api-heading">
        <h2 id="api-heading">API</h2>
        <p>
          The dashboard calls the same API as your scripts: <code>{boot.api_base}/v1</code>. Its reference is at{" "}
          <a href={`${boot.api_base}/docs`}>{boot.api_base}/docs</a>.
        </p>
      </section>
    </div>
  );
}

/**
 * The dashboard's front page: a card per section, for the pages it is given (the registry passes
 * the others, so this page imports no page list). It is the landing page, so it is part of the
 * first load, not a chunk.
 */
export function overviewPage(sections: readonly DashboardPage[]): DashboardPage {
  return definePage({
    id: "overview",
    path: "/",
    title: "Overview",
    nav: { label: "Overview", order: 0, group: "Dashboard" },
    component: () => <Overview sections={sections} />,
  });
}
