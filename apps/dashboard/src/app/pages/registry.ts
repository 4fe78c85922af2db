import { lazyPage } from "./kit/lazy-page.js";
import { overviewPage } from "./overview.js";
import type { DashboardPage } from "./kit/page.js";

/**
 * Every page but the overview, in no particular order (the navigation sorts by `nav.order`). Each
 * is one line: what the shell needs to route and list it (see `DashboardPage` in page.ts), and the
 * module whose default export is its component. The build makes each module a chunk of its own,
 * fetched when the page first opens (apps/dashboard/README.md, "Adding a page").
 */
const SECTIONS: readonly DashboardPage[] = [
  lazyPage({ id: "connections", path: "/connections", title: "Connections", nav: { label: "Connections", order: 5, group: "Dashboard" } }, () => import("./connections/connections-view.js")),
  lazyPage({ id: "alert-sets", path: "/alert-sets", title: "Alert sets", nav: { label: "Alert sets", order: 10, group: "Alerts" }, managedScope: "alerts:manage" }, () => import("./alert-sets/list.js")),
  lazyPage({ id: "alert-set-editor", path: "/alert-sets/:id", title: "Edit alert set", managedScope: "alerts:manage" }, () => import("./alert-sets/editor.js")),
  lazyPage({ id: "browser-sources", path: "/browser-sources", title: "Browser sources", nav: { label: "Browser sources", order: 20, group: "Alerts" }, managedScope: "alerts:manage" }, () => import("./browser-sources.js")),
  lazyPage({ id: "overlays", path: "/overlays", title: "Overlays", nav: { label: "Overlays", order: 22, group: "Alerts" }, managedScope: "alerts:manage" }, () => import("./overlays/overlays-view.js")),
  lazyPage({ id: "goal-bars", path: "/goal-bars", title: "Goal bars", nav: { label: "Goal bars", order: 25, group: "Alerts" }, managedScope: "widgets:manage" }, () => import("./goal-bars/goal-bars-view.js")),
  lazyPage({ id: "alert-log", path: "/alert-log", title: "Alert log and queue", nav: { label: "Alert log", order: 30, group: "Alerts" }, managedScope: "alerts:manage" }, () => import("./alert-log.js")),
  lazyPage({ id: "simulator", path: "/simulator", title: "Event simulator", nav: { label: "Simulator", order: 35, group: "Alerts" }, managedScope: "alerts:manage" }, () => import("./simulator/simulator-view.js")),
  lazyPage({ id: "commands", path: "/commands", title: "Commands", nav: { label: "Commands", order: 40, group: "Chat bot" }, managedScope: "chatbot:manage:commands" }, () => import("./commands/command-list.js")),
  lazyPage({ id: "command-editor", path: "/commands/:id", title: (params) => (params["id"] === "new" ? "New command" : "Edit command"), managedScope: "chatbot:manage:commands" }, () => import("./commands/command-editor.js")),
  lazyPage({ id: "counters", path: "/counters", title: "Counters", nav: { label: "Counters", order: 50, group: "Chat bot" }, managedScope: "chatbot:manage" }, () => import("./counters.js")),
  lazyPage({ id: "timers", path: "/timers", title: "Timers", nav: { label: "Timers", order: 55, group: "Chat bot" }, managedScope: "chatbot:manage:timers" }, () => import("./timers/timers-view.js")),
  lazyPage({ id: "giveaways", path: "/giveaways", title: "Giveaways", nav: { label: "Giveaways", order: 57, group: "Chat bot" }, managedScope: "chatbot:manage:giveaways" }, () => import("./giveaways/giveaways-view.js")),
  lazyPage({ id: "queue", path: "/queue", title: "Viewer queue", nav: { label: "Viewer queue", order: 57.2, group: "Chat bot" }, managedScope: "chatbot:manage:queue" }, () => import("./queue/queue-view.js")),
  lazyPage({ id: "polls", path: "/polls", title: "Polls", nav: { label: "Polls", order: 57.4, group: "Chat bot" }, managedScope: "chatbot:manage:polls" }, () => import("./polls/polls-view.js")),
  lazyPage({ id: "shoutouts", path: "/shoutouts", title: "Shoutouts", nav: { label: "Shoutouts", order: 57.6, group: "Chat bot" }, managedScope: "chatbot:manage:shoutouts" }, () => import("./shoutouts/shoutouts-view.js")),
  lazyPage({ id: "points", path: "/points", title: "Points", nav: { label: "Points", order: 57.7, group: "Chat bot" }, managedScope: "chatbot:manage:points" }, () => import("./points/points-view.js")),
  lazyPage({ id: "quotes", path: "/quotes", title: "Quotes", nav: { label: "Quotes", order: 57.8, group: "Chat bot" }, managedScope: "chatbot:manage:quotes" }, () => import("./quotes/quotes-view.js")),
  lazyPage({ id: "moderation", path: "/moderation", title: "Auto-moderation", nav: { label: "Auto-moderation", order: 58, group: "Chat bot" }, managedScope: "chatbot:manage:moderation" }, () => import("./moderation/moderation-view.js")),
  lazyPage({ id: "system-commands", path: "/system-commands", title: "System commands", nav: { label: "System commands", order: 59, group: "Chat bot" }, managedScope: "chatbot:manage" }, () => import("./system-commands/system-commands-view.js")),
  lazyPage({ id: "plugins", path: "/plugins", title: "Plugins", nav: { label: "Plugins", order: 70, group: "Server" } }, () => import("./plugins.js")),
  lazyPage({ id: "tokens", path: "/tokens", title: "Access tokens", nav: { label: "Access tokens", order: 80, group: "Account" } }, () => import("./tokens.js")),
  lazyPage({ id: "managers", path: "/managers", title: "Managers", nav: { label: "Managers", order: 85, group: "Account" } }, () => import("./managers/managers-view.js")),
  lazyPage({ id: "security", path: "/security", title: "Security", nav: { label: "Security", order: 90, group: "Account" } }, () => import("./security/security-view.js")),
];

/** Every page of the dashboard: the overview (the landing page, part of the first load) with a card for each section, then the sections. */
export const PAGES: readonly DashboardPage[] = [overviewPage(SECTIONS), ...SECTIONS];
