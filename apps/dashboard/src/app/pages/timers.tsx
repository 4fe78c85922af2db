import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Timers: repeated messages, the live state, and when each posts next. */
export const timersPage = definePage({
  id: "timers",
  path: "/timers",
  title: "Timers",
  nav: { label: "Timers", order: 55, group: "Chat bot" },
  managedScope: "chatbot:manage:timers",
  component: lazyPage(() => import("./timers/timers-view.js")),
});
