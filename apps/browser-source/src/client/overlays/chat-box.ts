import type { ChatSourceSettings } from "@ovation/core/overlays";
import type { ChatEvent } from "@ovation/core/contracts";
import { chatFilter } from "./chat-filter.js";
import { buildChatLine } from "./chat-line.js";

/** Longest a batch of incoming messages waits for a frame (a hidden page gets no frames). */
const FLUSH_FALLBACK_MS = 100;
/** How long a fading line takes to go (matches the CSS transition). */
const FADE_MS = 600;

/**
 * The chat box: lines in arrival order, newest at the bottom. Incoming messages are drawn once per
 * frame as one batch (200 messages a second cost a few DOM inserts per frame, not 200 layouts), the
 * oldest lines go past `max_lines`, lines fade after `fade_after_seconds`, and deletions and clears
 * remove lines at once (a message deleted before it was drawn is never drawn).
 */
export class ChatBox {
  readonly element: HTMLElement;
  readonly #doc: Document;
  #settings: ChatSourceSettings;
  #accepts: (event: ChatEvent) => boolean;
  #pending: ChatEvent[] = [];
  #scheduled = false;
  /** Lines by `platform\0id`, in insertion order (a Map keeps it), with when each fades. */
  readonly #lines = new Map<string, { element: HTMLElement; platform: string; user: string; fadeAt: number }>();
  #fadeTimer: ReturnType<typeof setInterval> | null = null;
  #drawn = 0;

  constructor(doc: Document, settings: ChatSourceSettings) {
    this.#doc = doc;
    this.#settings = settings;
    this.#accepts = chatFilter(settings);
    this.element = doc.createElement("div");
    this.element.className = "ovation-chat";
    this.#apply();
  }

  /** Applies new options; lines already shown stay. */
  configure(settings: ChatSourceSettings): void {
    this.#settings = settings;
    this.#accepts = chatFilter(settings);
    this.#apply();
    this.#trim();
  }

  /** Queues a message for the next frame, when the options let it show. */
  add(event: ChatEvent): void {
    if (!this.#accepts(event)) return;
    this.#pending.push(event);
    if (this.#pending.length > this.#settings.max_lines) this.#pending.splice(0, this.#pending.length - this.#settings.max_lines);
    this.#schedule();
  }

  /** Removes a message (only that platform's when `platform` is given). */
  delete(id: string, platform?: string): void {
    this.#pending = this.#pending.filter((e) => !(e.id === id && (platform === undefined || e.platform === platform)));
    for (const [key, line] of this.#lines) {
      if (line.element.dataset.id === id && (platform === undefined || line.platform === platform)) this.#remove(key);
    }
  }

  /** Clears the chat of a platform (every platform when absent), or only one user's lines. */
  clear(platform?: string, userPlatformId?: string): void {
    const hit = (p: string, user: string) => (platform === undefined || p === platform) && (userPlatformId === undefined || user === userPlatformId);
    this.#pending = this.#pending.filter((e) => !hit(e.platform, e.user.platform_id));
    for (const [key, line] of this.#lines) if (hit(line.platform, line.user)) this.#remove(key);
  }

  /** Lines on screen. */
  get size(): number {
    return this.#lines.size;
  }

  /** Stops the timers. */
  close(): void {
    if (this.#fadeTimer !== null) clearInterval(this.#fadeTimer);
    this.#fadeTimer = null;
  }

  #apply(): void {
    const s = this.#settings;
    this.element.dataset.theme = s.theme;
    this.element.style.setProperty("--ovation-chat-font-size", `${s.font_size}px`);
    if (s.fade_after_seconds > 0 && this.#fadeTimer === null) this.#fadeTimer = setInterval(() => this.#fade(), 250);
    if (s.fade_after_seconds === 0 && this.#fadeTimer !== null) {
      clearInterval(this.#fadeTimer);
      this.#fadeTimer = null;
    }
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    let done = false;
    const run = () => {
      if (done) return;
      done = true;
      this.#flush();
    };
    const view = this.#doc.defaultView;
    if (view) view.requestAnimationFrame(run);
    setTimeout(run, FLUSH_FALLBACK_MS);
  }

  #flush(): void {
    this.#scheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return;
    const fragment = this.#doc.createDocumentFragment();
    const now = Date.now();
    const fadeAfter = this.#settings.fade_after_seconds * 1000;
    for (const event of batch) {
      const key = `${event.platform}\u0000${event.id}`;
      if (this.#lines.has(key)) continue;
      const element = buildChatLine(this.#doc, event, this.#settings);
      this.#lines.set(key, { element, platform: event.platform, user: event.user.platform_id, fadeAt: fadeAfter > 0 ? now + fadeAfter : Infinity });
      fragment.append(element);
    }
    this.element.append(fragment);
    this.#drawn += batch.length;
    this.element.dataset.drawn = String(this.#drawn);
    this.#trim();
  }

  #trim(): void {
    const excess = this.#lines.size - this.#settings.max_lines;
    if (excess <= 0) return;
    let n = 0;
    for (const key of this.#lines.keys()) {
      if (n++ >= excess) break;
      this.#remove(key);
    }
  }

  #fade(): void {
    const now = Date.now();
    for (const [key, line] of this.#lines) {
      if (line.fadeAt > now) break; // insertion order is fade order
      line.element.dataset.phase = "fading";
      this.#lines.delete(key);
      setTimeout(() => line.element.remove(), FADE_MS);
    }
  }

  #remove(key: string): void {
    const line = this.#lines.get(key);
    if (!line) return;
    this.#lines.delete(key);
    line.element.remove();
  }
}
