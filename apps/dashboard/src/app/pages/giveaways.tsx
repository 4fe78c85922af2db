import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Giveaways: open, entries arriving, draw, reroll. */
export const giveawaysPage = definePage({
  id: "giveaways",
  path: "/giveaways",
  title: "Giveaways",
  nav: { label: "Giveaways", order: 57, group: "Chat bot" },
  managedScope: "chatbot:manage:giveaways",
  component: lazyPage(() => import("./giveaways/giveaways-view.js")),
});
