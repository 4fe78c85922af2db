import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Managers: who may help on your channel (editor, moderator), what they changed, and the channels you manage. */
export const managersPage = definePage({
  id: "managers",
  path: "/managers",
  title: "Managers",
  nav: { label: "Managers", order: 85, group: "Account" },
  component: lazyPage(() => import("./managers/managers-view.js")),
});
