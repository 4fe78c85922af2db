import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Loyalty points: leaderboard, history, settings, CSV import and export. */
export const pointsPage = definePage({
  id: "points",
  path: "/points",
  title: "Points",
  nav: { label: "Points", order: 61, group: "Chat bot" },
  managedScope: "chatbot:manage:points",
  component: lazyPage(() => import("./points/points-view.js")),
});
