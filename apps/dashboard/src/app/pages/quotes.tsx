import { lazyPage } from "./lazy-page.js";
import { definePage } from "./page.js";

/** Quotes: the channel's quote book, with the category, title and date of each quote. */
export const quotesPage = definePage({
  id: "quotes",
  path: "/quotes",
  title: "Quotes",
  nav: { label: "Quotes", order: 62, group: "Chat bot" },
  managedScope: "chatbot:manage:quotes",
  component: lazyPage(() => import("./quotes/quotes-view.js")),
});
