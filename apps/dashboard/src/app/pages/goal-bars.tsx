import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Goal bars: create with a kind and a target, and watch their progress. */
export const goalBarsPage = definePage({
  id: "goal-bars",
  path: "/goal-bars",
  title: "Goal bars",
  nav: { label: "Goal bars", order: 25, group: "Alerts" },
  managedScope: "widgets:manage",
  component: lazyPage(() => import("./goal-bars/goal-bars-view.js")),
});
