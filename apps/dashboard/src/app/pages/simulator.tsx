import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** The event simulator: any catalog event of any platform, sent as its plugin would. */
export const simulatorPage = definePage({
  id: "simulator",
  path: "/simulator",
  title: "Event simulator",
  nav: { label: "Simulator", order: 35, group: "Alerts" },
  managedScope: "alerts:manage",
  component: lazyPage(() => import("./simulator/simulator-view.js")),
});
