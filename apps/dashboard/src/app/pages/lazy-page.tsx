import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { PageProps } from "./page.js";

/**
 * A page whose code is a chunk of its own, fetched the first time the page opens (the build splits
 * every `import()`): the bot pages stay out of the first load and its size budget.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType<PageProps> }>): ComponentType<PageProps> {
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
