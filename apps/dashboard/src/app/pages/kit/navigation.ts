import type { DashboardPage } from "./page.js";

/** The navigation of `pages`: groups in the order of their first page, pages by `nav.order`; `shown` filters. */
export function navigationGroups(pages: readonly DashboardPage[], shown: (page: DashboardPage) => boolean = () => true): { name: string; pages: DashboardPage[] }[] {
  const listed = pages.filter((p) => p.nav !== undefined && shown(p)).sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
  const groups = new Map<string, DashboardPage[]>();
  for (const page of listed) {
    const name = page.nav?.group ?? "";
    groups.set(name, [...(groups.get(name) ?? []), page]);
  }
  return [...groups].map(([name, grouped]) => ({ name, pages: grouped }));
}
