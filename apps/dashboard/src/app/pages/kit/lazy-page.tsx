import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { DashboardPage, PageProps } from "./page.js";

/** A page module: its default export is the page's component. */
export interface PageModule {
  default: ComponentType<PageProps>;
}

/** What a page declares besides its component (see {@link DashboardPage}). */
export type PageDeclaration = Omit<DashboardPage, "component">;

/**
 * A component that fetches its code the first time it renders: the build splits every `import()`
 * into a chunk of its own, so the page stays out of the first load and its size budget. A chunk
 * that fails to load (a tab older than the server's last update asks for a chunk name that is gone)
 * says so and offers nothing else: reloading gets the new `app.js` and its chunks.
 */
export function lazyComponent(load: () => Promise<PageModule>): ComponentType<PageProps> {
  let loaded: ComponentType<PageProps> | null = null;
  return function LazyPage(props: PageProps) {
    const [Page, setPage] = useState<ComponentType<PageProps> | null>(() => loaded);
    const [failed, setFailed] = useState(false);
    useEffect(() => {
      if (Page !== null) return;
      let cancelled = false;
      load().then(
        (module) => {
          loaded = module.default;
          if (!cancelled) setPage(() => module.default);
        },
        () => !cancelled && setFailed(true),
      );
      return () => {
        cancelled = true;
      };
    }, [Page]);
    if (Page !== null) return <Page {...props} />;
    return failed ? (
      <p class="card field-error" role="alert">
        This page could not be loaded. Reload the dashboard (the server may have been updated).
      </p>
    ) : (
      <p class="muted loading-line" role="status">
        Loading…
      </p>
    );
  };
}

/**
 * A page whose component is a chunk of its own, loaded when the page first opens: one line of
 * `pages/registry.ts`, e.g.
 * `lazyPage({ id: "points", path: "/points", title: "Points", nav: {...} }, () => import("./points/points-view.js"))`.
 */
export function lazyPage(page: PageDeclaration, load: () => Promise<PageModule>): DashboardPage {
  return { ...page, component: lazyComponent(load) };
}
