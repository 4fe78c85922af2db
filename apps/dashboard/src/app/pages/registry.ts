import { alertSetEditorPage, alertSetsPage } from "./alert-sets/index.js";
import { overviewPage } from "./overview.js";
import type { DashboardPage } from "./page.js";

/**
 * Every page of the dashboard, in no particular order (the navigation sorts by `nav.order`).
 * Adding a page: a new file exporting a `DashboardPage` (see page.ts), and one line here.
 */
export const PAGES: readonly DashboardPage[] = [
  overviewPage,
  alertSetsPage,
  alertSetEditorPage,
];

/** The navigation: groups in the order of their first page, pages by `nav.order`. */
export function navigationGroups(pages: readonly DashboardPage[] = PAGES): { name: string; pages: DashboardPage[] }[] {
  const listed = pages.filter((p) => p.nav !== undefined).sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
  const groups = new Map<string, DashboardPage[]>();
  for (const page of listed) {
    const name = page.nav?.group ?? "";
    groups.set(name, [...(groups.get(name) ?? []), page]);
  }
  return [...groups].map(([name, grouped]) => ({ name, pages: grouped }));
}
