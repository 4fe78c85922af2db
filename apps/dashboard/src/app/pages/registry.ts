import { alertSetEditorPage, alertSetsPage } from "./alert-sets/index.js";
import { alertLogPage } from "./alert-log.js";
import { browserSourcesPage } from "./browser-sources.js";
import { commandEditorPage, commandsPage } from "./commands.js";
import { connectionsPage } from "./connections.js";
import { countersPage } from "./counters.js";
import { overlaysPage } from "./overlays.js";
import { overviewPage } from "./overview.js";
import { pluginsPage } from "./plugins.js";
import { securityPage } from "./security.js";
import { simulatorPage } from "./simulator.js";
import { goalBarsPage } from "./goal-bars.js";
import { timersPage } from "./timers.js";
import { giveawaysPage } from "./giveaways.js";
import { moderationPage } from "./moderation.js";
import { systemCommandsPage } from "./system-commands.js";
import { tokensPage } from "./tokens.js";
import { managersPage } from "./managers.js";
import type { DashboardPage } from "./page.js";

/**
 * Every page of the dashboard, in no particular order (the navigation sorts by `nav.order`).
 * Adding a page: a new file exporting a `DashboardPage` (see page.ts), and one line here.
 */
export const PAGES: readonly DashboardPage[] = [
  overviewPage,
  connectionsPage,
  alertSetsPage,
  alertSetEditorPage,
  browserSourcesPage,
  alertLogPage,
  commandsPage,
  commandEditorPage,
  countersPage,
  pluginsPage,
  tokensPage,
  securityPage,
  simulatorPage,
  goalBarsPage,
  timersPage,
  giveawaysPage,
  moderationPage,
  systemCommandsPage,
  overlaysPage,
  managersPage,
];

/** The navigation: groups in the order of their first page, pages by `nav.order`. */
export function navigationGroups(pages: readonly DashboardPage[] = PAGES, shown: (page: DashboardPage) => boolean = () => true): { name: string; pages: DashboardPage[] }[] {
  const listed = pages.filter((p) => p.nav !== undefined && shown(p)).sort((a, b) => (a.nav?.order ?? 0) - (b.nav?.order ?? 0));
  const groups = new Map<string, DashboardPage[]>();
  for (const page of listed) {
    const name = page.nav?.group ?? "";
    groups.set(name, [...(groups.get(name) ?? []), page]);
  }
  return [...groups].map(([name, grouped]) => ({ name, pages: grouped }));
}
