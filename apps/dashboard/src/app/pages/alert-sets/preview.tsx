import { planPreview, showPreview } from "@ovation/browser-source/preview";
import type { AlertPlan, PreviewAlert } from "@ovation/browser-source/preview";
import type { AlertSetInput } from "@ovation/core/alerts";
import { useEffect, useRef, useState } from "preact/hooks";
import { useApp } from "../../app-context.js";

/** The stage size the browser source is drawn at in OBS; the preview scales it down. */
const STAGE = { width: 1920, height: 1080 };

/**
 * The live preview: a same-origin blank frame holding the browser-source page's own stylesheet and
 * stage, drawn by the browser-source renderer (`@ovation/browser-source/preview`), so the preview is
 * what OBS shows. It redraws on every change of the set or the sample alert; "Play" animates it with sound.
 */
export function AlertPreview({ set, alert }: { set: AlertSetInput | null; alert: PreviewAlert }) {
  const { boot } = useApp();
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [stage, setStage] = useState<HTMLElement | null>(null);
  const [scale, setScale] = useState(0);
  const [plan, setPlan] = useState<AlertPlan | null>(null);
  const [playing, setPlaying] = useState<AbortController | null>(null);

  // Builds the frame's document once: the page's stylesheet (fonts and animations included) and its root.
  useEffect(() => {
    const doc = frame.current?.contentDocument;
    if (!doc) return;
    const css = doc.createElement("link");
    css.rel = "stylesheet";
    css.href = `${boot.api_base}/browser-source/assets/app.css`;
    doc.head.replaceChildren(css);
    const root = doc.createElement("div");
    root.id = "ovation-root";
    doc.body.replaceChildren(root);
    setStage(root);
  }, [boot.api_base]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setScale(element.clientWidth / STAGE.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!stage) return;
    playing?.abort();
    setPlaying(null);
    if (set === null) {
      setPlan(null);
      stage.replaceChildren();
      return;
    }
    let next: AlertPlan;
    try {
      next = planPreview(set as unknown as Record<string, unknown>, alert);
    } catch (error) {
      next = { kind: "disabled", reason: error instanceof Error ? error.message : String(error) };
    }
    setPlan(next);
    const controller = new AbortController();
    void showPreview(stage, next, controller.signal, { animate: false, sound: false });
    return () => controller.abort();
    // `playing` is read to stop an animation, not a reason to redraw.
  }, [stage, set, alert]);

  const play = () => {
    if (!stage || !plan) return;
    playing?.abort();
    const controller = new AbortController();
    setPlaying(controller);
    void showPreview(stage, plan, controller.signal, { animate: true, sound: true }).finally(() => {
      setPlaying((current) => (current === controller ? null : current));
      if (!controller.signal.aborted) void showPreview(stage, plan, new AbortController().signal, { animate: false, sound: false });
    });
  };

  const status = set === null ? "Fix the errors in the form to update the preview." : plan?.kind === "disabled" ? `Not shown: ${plan.reason}` : plan?.kind === "standard" ? "Shown as in OBS (1920 × 1080)." : "";
  return (
    <div class="preview">
      <div class="preview-box" ref={box} data-testid="alert-preview">
        <iframe
          ref={frame}
          title="Alert preview"
          class="preview-frame"
          width={STAGE.width}
          height={STAGE.height}
          tabIndex={-1}
          style={{ transform: `scale(${scale})` }}
        />
      </div>
      <div class="toolbar">
        <p class="muted preview-status" role="status" data-plan={plan?.kind ?? "none"}>
          {status}
        </p>
        <span class="spacer" />
        <button type="button" class="button secondary small" disabled={plan?.kind !== "standard"} onClick={play}>
          {playing ? "Playing…" : "Play with animation and sound"}
        </button>
      </div>
    </div>
  );
}

/** The preview frame's document text, for the stage of a frame that has none yet. */
export const PREVIEW_STAGE = STAGE;
