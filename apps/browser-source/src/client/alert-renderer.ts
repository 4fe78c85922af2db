import type { AlertView, FontAnimation, TextSegment } from "./alert-view.js";
import { loadImage, loadSound, startSound, stopSound, wait } from "./media.js";


/** Length of the enter and leave animations (the CSS uses the same figure through `--ovation-transition`). */
export const TRANSITION_MS = 600;

const LETTER_ANIMATIONS: readonly FontAnimation[] = ["wave", "bounce"];

function textLine(doc: Document, className: string, segments: readonly TextSegment[], view: AlertView, scale: number): HTMLElement {
  const line = doc.createElement("div");
  line.className = `ovation-line ${className} ovation-font-${view.font.animation}`;
  line.style.fontSize = `${Math.round(view.font.sizePx * scale * 10) / 10}px`;
  line.style.animationDelay = `${view.font.delayMs}ms`;
  const letterWise = LETTER_ANIMATIONS.includes(view.font.animation);
  let letterIndex = 0;
  for (const segment of segments) {
    const span = doc.createElement("span");
    if (segment.fromData) {
      span.className = "ovation-highlight";
      span.style.color = view.font.highlightColor;
    }
    if (letterWise) {
      for (const char of segment.text) {
        const letter = doc.createElement("span");
        letter.className = "ovation-letter";
        letter.style.animationDelay = `${view.font.delayMs + letterIndex * 60}ms`;
        letter.textContent = char;
        span.append(letter);
        letterIndex += 1;
      }
    } else {
      span.textContent = segment.text;
    }
    line.append(span);
  }
  return line;
}

/** Builds the DOM of a standard alert. Viewer text only ever lands in `textContent`. */
export function buildAlertElement(doc: Document, id: string, view: AlertView, image: HTMLImageElement | null): HTMLElement {
  const alert = doc.createElement("div");
  alert.className = `ovation-alert ovation-layout-${view.layout}`;
  alert.dataset.notificationId = id;
  alert.dataset.phase = "entering";
  alert.dataset.image = image ? "loaded" : "none";
  alert.style.color = view.font.color;
  alert.style.fontFamily = view.font.family;
  alert.style.fontWeight = String(view.font.weight);
  alert.style.setProperty("--ovation-highlight", view.font.highlightColor);
  if (image && view.layout !== "text-only") {
    image.className = "ovation-image";
    image.alt = "";
    alert.append(image);
  }
  if (view.layout !== "image-only") {
    const text = doc.createElement("div");
    text.className = "ovation-text";
    if (view.title.length > 0) text.append(textLine(doc, "ovation-title", view.title, view, 1));
    if (view.subtitle.length > 0) text.append(textLine(doc, "ovation-subtitle", view.subtitle, view, 0.6));
    alert.append(text);
  }
  alert.classList.add(`ovation-enter-${view.enter}`);
  return alert;
}

/**
 * Shows a standard alert on `stage` for its display time: loads image and sound (each gives up after
 * a short timeout), enters, stays, leaves, and removes itself. Resolves when the alert is gone; when
 * `signal` aborts it removes the alert at once.
 */
export async function playStandardAlert(stage: HTMLElement, id: string, view: AlertView, signal: AbortSignal): Promise<void> {
  const [image, audio] = await Promise.all([
    view.image && view.layout !== "text-only" ? loadImage(view.image, signal) : Promise.resolve(null),
    view.sound && view.volume > 0 ? loadSound(view.sound, view.volume, signal) : Promise.resolve(null),
  ]);
  if (signal.aborted) {
    stopSound(audio);
    return;
  }
  const alert = buildAlertElement(stage.ownerDocument, id, view, image);
  stage.replaceChildren(alert);
  startSound(audio);
  try {
    await wait(Math.min(TRANSITION_MS, view.displayMs / 3), signal);
    alert.dataset.phase = "showing";
    await wait(view.displayMs - 2 * Math.min(TRANSITION_MS, view.displayMs / 3), signal);
    if (!signal.aborted) {
      alert.dataset.phase = "leaving";
      alert.classList.remove(`ovation-enter-${view.enter}`);
      alert.classList.add(`ovation-leave-${view.leave}`);
      await wait(Math.min(TRANSITION_MS, view.displayMs / 3), signal);
    }
  } finally {
    alert.remove();
    stopSound(audio);
  }
}

/** What a variant 3 alert needs besides its document. */
export interface CustomAlertPlayback {
  document: string;
  displayMs: number;
  sound: string | null;
  volume: number;
}

/**
 * Shows a variant 3 alert: its document runs in an iframe with `sandbox="allow-scripts"` (no
 * same-origin, so it cannot touch this page, its token or its socket), for the display time.
 */
export async function playCustomAlert(stage: HTMLElement, id: string, playback: CustomAlertPlayback, signal: AbortSignal): Promise<void> {
  const audio = playback.sound && playback.volume > 0 ? await loadSound(playback.sound, playback.volume, signal) : null;
  if (signal.aborted) {
    stopSound(audio);
    return;
  }
  const doc = stage.ownerDocument;
  const alert = doc.createElement("div");
  alert.className = "ovation-alert ovation-custom ovation-enter-fade-in";
  alert.dataset.notificationId = id;
  alert.dataset.phase = "showing";
  const frame = doc.createElement("iframe");
  frame.className = "ovation-custom-frame";
  frame.setAttribute("sandbox", "allow-scripts");
  frame.setAttribute("referrerpolicy", "no-referrer");
  frame.title = "custom alert";
  frame.srcdoc = playback.document;
  alert.append(frame);
  stage.replaceChildren(alert);
  startSound(audio);
  try {
    await wait(playback.displayMs, signal);
  } finally {
    alert.remove();
    stopSound(audio);
  }
}
