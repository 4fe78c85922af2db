import { eventsSourceSettingsSchema } from "@ovation/core/overlays";
import type { EventsSourceSettings } from "@ovation/core/overlays";
import type { BrowserSourceBootstrap } from "../../bootstrap.js";
import type { PageStatus } from "../page-state.js";
import { readAlertEntry } from "./alert-entry.js";
import type { AlertEntry } from "./alert-entry.js";
import { platformIcon } from "./icons.js";
import { readSettings, runOverlay } from "./overlay-runner.js";

/** Builds one row of the event list; every value goes in as text. */
export function buildEventRow(doc: Document, entry: AlertEntry): HTMLElement {
  const row = doc.createElement("div");
  row.className = "ovation-event";
  row.dataset.id = entry.id;
  row.dataset.type = entry.type;
  row.dataset.platform = entry.platform;
  const name = doc.createElement("span");
  name.className = "ovation-event-name";
  name.textContent = entry.name;
  const label = doc.createElement("span");
  label.className = "ovation-event-label";
  label.textContent = entry.amount === "" ? entry.label : `${entry.label} · ${entry.amount}`;
  row.append(platformIcon(doc, entry.platform), name, label);
  if (entry.message !== "") {
    const message = doc.createElement("div");
    message.className = "ovation-event-message";
    message.textContent = entry.message;
    row.append(message);
  }
  return row;
}

/** The list of an events source: the last `limit` alerts that pass its filters, newest first. */
export class EventList {
  readonly element: HTMLElement;
  readonly #doc: Document;
  #settings: EventsSourceSettings;
  /** Every alert seen (newest first, bounded), so a change of filters redraws from what is known. */
  #entries: AlertEntry[] = [];

  constructor(doc: Document, settings: EventsSourceSettings) {
    this.#doc = doc;
    this.#settings = settings;
    this.element = doc.createElement("div");
    this.element.className = "ovation-events";
  }

  /** Replaces the list with the log (newest first) and new options. */
  reset(log: readonly unknown[], settings: EventsSourceSettings): void {
    this.#settings = settings;
    const seen = new Set<string>();
    this.#entries = log.flatMap((payload) => {
      const entry = readAlertEntry(payload);
      if (!entry || seen.has(entry.id)) return [];
      seen.add(entry.id);
      return [entry];
    });
    this.#draw();
  }

  /** Puts a live alert on top (a second delivery of the same id is ignored). */
  add(payload: unknown): void {
    const entry = readAlertEntry(payload);
    if (!entry || this.#entries.some((e) => e.id === entry.id)) return;
    this.#entries.unshift(entry);
    if (this.#entries.length > 200) this.#entries.length = 200;
    this.#draw();
  }

  #draw(): void {
    const s = this.#settings;
    const types = new Set(s.types);
    const platforms = new Set(s.platforms);
    const shown = this.#entries
      .filter((e) => (types.size === 0 || types.has(e.type)) && (platforms.size === 0 || platforms.has(e.platform)) && (s.include_tests || !e.test))
      .slice(0, s.limit);
    this.element.dataset.theme = s.theme;
    this.element.style.setProperty("--ovation-chat-font-size", `${s.font_size}px`);
    this.element.replaceChildren(...shown.map((entry) => buildEventRow(this.#doc, entry)));
  }
}

/** The `events` page: the activity feed, from the alert log at start and live `notifysub` after. */
export async function runEventsPage(bootstrap: BrowserSourceBootstrap, stage: HTMLElement, status: PageStatus): Promise<void> {
  let list: EventList | null = null;
  await runOverlay(bootstrap, status, {
    rooms: () => [],
    start: (config, socket) => {
      const events = new EventList(stage.ownerDocument, readSettings(eventsSourceSettingsSchema, config, status));
      list = events;
      events.reset(config.alert_log, readSettings(eventsSourceSettingsSchema, config, status));
      stage.classList.add("ovation-stage-events");
      stage.replaceChildren(events.element);
      socket.on("notifysub", (payload) => events.add(payload));
    },
    update: (config) => list?.reset(config.alert_log, readSettings(eventsSourceSettingsSchema, config, status)),
    stop: () => stage.replaceChildren(),
  });
}
