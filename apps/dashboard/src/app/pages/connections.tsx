import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Connections: connect Twitch, YouTube, Kick and TikTok, switch the bot per channel, see what to do, disconnect. */
export const connectionsPage = definePage({
  id: "connections",
  path: "/connections",
  title: "Connections",
  nav: { label: "Connections", order: 5, group: "Dashboard" },
  component: lazyPage(() => import("./connections/connections-view.js")),
});
