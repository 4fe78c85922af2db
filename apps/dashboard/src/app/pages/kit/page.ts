import type { ComponentType } from "preact";

/** Route parameters of a page (`/alert-sets/:id` gives `{ id }`). */
export type PageParams = Readonly<Record<string, string | undefined>>;

/** Props every page component receives. */
export interface PageProps {
  params: PageParams;
}

/** Where a page sits in the navigation. */
export interface PageNav {
  /** The link's text. */
  label: string;
  /** Position in the navigation, smallest first (overview 0, alert sets 10; leave gaps). */
  order: number;
  /** Group heading: "Alerts", "Chat bot", "Account"... (pages of a group are listed together). */
  group: string;
}

/**
 * One page of the dashboard. Adding a page is one module whose default export is the page's
 * component, plus one `lazyPage({...}, () => import("./x.js"))` line in `pages/registry.ts` (the
 * module becomes a chunk of its own, fetched when the page first opens). The shell routes `path`
 * (below the dashboard base, wouter patterns such as `/alert-sets/:id`), sets the document title and
 * the page's `<h1>`, moves focus to it on navigation, and lists the page in the navigation when
 * `nav` is given.
 */
export interface DashboardPage {
  /** Stable id (used by tests and the navigation's `data-page`). */
  id: string;
  path: string;
  /** The `<h1>` and document title; a function of the route parameters for detail pages. */
  title: string | ((params: PageParams) => string);
  nav?: PageNav;
  /**
   * The scope a manager's role must grant for the page to work on a channel they manage (its calls
   * go through `useClient()`, which sends them to `/v1/bots/{user}/...`). Without it the page is
   * the signed-in user's own: it is refused while another channel is chosen in the channel switcher.
   */
  managedScope?: string;
  component: ComponentType<PageProps>;
}

/** Identity function that types a page definition. */
export function definePage(page: DashboardPage): DashboardPage {
  return page;
}

/** The title of a page for its parameters. */
export function pageTitle(page: DashboardPage, params: PageParams): string {
  return typeof page.title === "function" ? page.title(params) : page.title;
}
