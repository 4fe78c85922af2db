import type { ComponentType } from "preact";
import { useEffect, useState } from "preact/hooks";
import { definePage } from "./page.js";

/**
 * The overlays page's UI loads on first visit, as a chunk of its own (esbuild splitting), so the
 * options editors, the scene editor and the read-aloud controls stay out of app.js and its budget.
 */
function LazyOverlays() {
  const [view, setView] = useState<{ component: ComponentType } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    import("./overlays/overlays-view.js").then(
      (module) => setView({ component: module.Overlays }),
      (error: unknown) => setFailed(error instanceof Error ? error.message : String(error)),
    );
  }, []);
  if (failed !== null) return <p class="card error" role="alert">The overlays page did not load ({failed}). Reload the page to try again.</p>;
  if (view === null) return <p class="muted" aria-busy="true">Loading…</p>;
  const View = view.component;
  return <View />;
}

/** Overlays: chat box, event list, emote wall, effect alerts, scenes (drag to lay out) and read-aloud alerts, each with a live preview. */
export const overlaysPage = definePage({
  id: "overlays",
  path: "/overlays",
  title: "Overlays",
  nav: { label: "Overlays", order: 22, group: "Alerts" },
  component: LazyOverlays,
});
