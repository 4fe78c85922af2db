import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import type { BrowserSourceConfig } from "../config.js";
import type { PageStatus } from "../page-state.js";
import { runOverlay } from "./overlay-runner.js";

/**
 * Lays the scene's parts out on `stage`: each another browser source of the user in a frame at its
 * place (percent of the scene), in order (later parts on top). Only addresses of this service's
 * browser sources reach the config, and the page's policy lets frames load from its own origin only.
 */
export function drawScene(stage: HTMLElement, config: Pick<BrowserSourceConfig, "scene_parts">): void {
  const doc = stage.ownerDocument;
  const frames = config.scene_parts.map((part, index) => {
    const frame = doc.createElement("iframe");
    frame.className = "ovation-scene-part";
    frame.dataset.browserSourceId = String(part.browser_source_id);
    frame.dataset.type = part.browser_source_type;
    frame.title = `${part.browser_source_type} ${part.browser_source_id}`;
    frame.allow = "autoplay";
    frame.referrerPolicy = "no-referrer";
    frame.style.left = `${part.x}%`;
    frame.style.top = `${part.y}%`;
    frame.style.width = `${part.width}%`;
    frame.style.height = `${part.height}%`;
    frame.style.zIndex = String(index + 1);
    frame.src = part.browser_source_url;
    return frame;
  });
  stage.replaceChildren(...frames);
  stage.dataset.parts = String(frames.length);
}

/** The `scenes` page: draws the parts, and draws them again when the layout is saved. */
export async function runScenesPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  let layout = "";
  const draw = (config: BrowserSourceConfig) => {
    const next = JSON.stringify(config.scene_parts);
    if (next === layout) return; // an unchanged layout keeps its frames (and their alerts) running
    layout = next;
    drawScene(stage, config);
  };
  await runOverlay(bootstrap, status, {
    rooms: () => [],
    start: (config) => draw(config),
    update: (config) => draw(config),
    stop: () => stage.replaceChildren(),
  });
}
