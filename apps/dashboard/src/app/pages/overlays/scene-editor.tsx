import type { ChannelBrowserSource as BrowserSource } from "@ovation/client";
import { useRef } from "preact/hooks";

/** One part of a scene: another source at a place, in percent of the scene. */
export interface ScenePart {
  browser_source_id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The scene layout editor: a 16:9 stage with a box per part; drag a box to move it, drag its corner
 * to resize it (positions in percent, so the scene fits any OBS canvas). Keyboard: arrows move the
 * focused part by 1 %, with Shift they resize it.
 */
export function SceneEditor({ parts, sources, onChange }: { parts: ScenePart[]; sources: readonly BrowserSource[]; onChange: (next: ScenePart[]) => void }) {
  const stage = useRef<HTMLDivElement>(null);
  const nameOf = (id: number) => {
    const source = sources.find((s) => s.id === id);
    return source ? `${source.browser_source_type}${source.identifier ? ` "${source.identifier}"` : ""} #${id}` : `#${id}`;
  };
  const update = (index: number, change: Partial<ScenePart>) => onChange(parts.map((p, i) => (i === index ? { ...p, ...change } : p)));

  const drag = (index: number, mode: "move" | "resize") => (event: PointerEvent) => {
    const box = stage.current?.getBoundingClientRect();
    const part = parts[index];
    if (!box || !part) return;
    event.preventDefault();
    const startX = event.clientX;
    const startY = event.clientY;
    const target = event.currentTarget as HTMLElement;
    target.setPointerCapture(event.pointerId);
    const move = (e: PointerEvent) => {
      const dx = ((e.clientX - startX) / box.width) * 100;
      const dy = ((e.clientY - startY) / box.height) * 100;
      if (mode === "move") update(index, { x: round(clamp(part.x + dx, 0, 100 - part.width)), y: round(clamp(part.y + dy, 0, 100 - part.height)) });
      else update(index, { width: round(clamp(part.width + dx, 1, 100 - part.x)), height: round(clamp(part.height + dy, 1, 100 - part.y)) });
    };
    const up = () => {
      target.removeEventListener("pointermove", move);
      target.removeEventListener("pointerup", up);
    };
    target.addEventListener("pointermove", move);
    target.addEventListener("pointerup", up);
  };

  const keys = (index: number) => (event: KeyboardEvent) => {
    const part = parts[index];
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
    if (!part || !step) return;
    event.preventDefault();
    const [dx = 0, dy = 0] = step;
    if (event.shiftKey) update(index, { width: clamp(part.width + dx, 1, 100 - part.x), height: clamp(part.height + dy, 1, 100 - part.y) });
    else update(index, { x: clamp(part.x + dx, 0, 100 - part.width), y: clamp(part.y + dy, 0, 100 - part.height) });
  };

  const candidates = sources.filter((s) => s.browser_source_type !== "scenes");
  return (
    <div class="stack">
      <div class="scene-stage" ref={stage} aria-label="Scene layout">
        {parts.map((part, index) => (
          <div
            key={`${part.browser_source_id}-${index}`}
            class="scene-box"
            role="button"
            tabIndex={0}
            data-part={index}
            aria-label={`${nameOf(part.browser_source_id)} at ${part.x}% ${part.y}%, ${part.width}% by ${part.height}%`}
            style={{ left: `${part.x}%`, top: `${part.y}%`, width: `${part.width}%`, height: `${part.height}%` }}
            onPointerDown={drag(index, "move")}
            onKeyDown={keys(index)}
          >
            <span class="scene-box-name">{nameOf(part.browser_source_id)}</span>
            <button type="button" class="scene-box-remove" aria-label={`Remove ${nameOf(part.browser_source_id)}`} onPointerDown={(e) => e.stopPropagation()} onClick={() => onChange(parts.filter((_, i) => i !== index))}>
              ×
            </button>
            <span class="scene-box-resize" aria-hidden="true" onPointerDown={(e) => (e.stopPropagation(), drag(index, "resize")(e))} />
          </div>
        ))}
      </div>
      <div class="toolbar">
        <label for="scene-add">Add a source</label>
        <select
          id="scene-add"
          value=""
          onChange={(event) => {
            const id = Number((event.currentTarget as HTMLSelectElement).value);
            if (id > 0) onChange([...parts, { browser_source_id: id, x: 5, y: 5, width: 40, height: 30 }]);
          }}
        >
          <option value="">Choose…</option>
          {candidates.map((s) => (
            <option key={s.id} value={String(s.id)}>
              {nameOf(s.id)}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
