import type { ChannelBrowserSource as BrowserSource } from "@ovation/client";
import { useEffect, useState } from "preact/hooks";
import { useChannel } from "../../channel.js";
import { messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { FormErrors } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";
import { SceneEditor } from "./scene-editor.js";
import type { ScenePart } from "./scene-editor.js";
import { SettingsForm } from "./settings-form.js";
import { SpeechPanel } from "./speech-panel.js";

/** The overlay types this page configures, with what each shows. */
const OVERLAYS = [
  { type: "chat", label: "Chat box", what: "Your chat from every platform in one box." },
  { type: "events", label: "Event list", what: "The latest follows, subs, cheers, tips… newest first." },
  { type: "emotewall", label: "Emote wall", what: "Emotes used in chat burst across the screen." },
  { type: "effect-alerts", label: "Effect alerts", what: "Confetti, emote rain, fireworks on alerts, in step with the alerts." },
  { type: "scenes", label: "Scene", what: "Several of your sources laid out in one address." },
  { type: "alerts", label: "Alerts (read-aloud)", what: "Your alerts; here: which messages are read aloud." },
] as const;

const labelOf = (source: BrowserSource) =>
  `${OVERLAYS.find((o) => o.type === source.browser_source_type)?.label ?? source.browser_source_type}${source.identifier ? ` "${source.identifier}"` : ""} #${source.id}`;

function Editor({ source, sources, onSaved }: { source: BrowserSource; sources: readonly BrowserSource[]; onSaved: (next: BrowserSource) => void }) {
  const client = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState<Record<string, unknown>>(source.settings);
  const [errors, setErrors] = useState<FieldErrors>({});
  useEffect(() => setDraft(source.settings), [source.id]);

  const save = async (settings: Record<string, unknown>) => {
    try {
      const saved = await client.browserSources.saveSettings(source.id, settings);
      setErrors({});
      onSaved(saved);
      toast("success", source.browser_source_url === null ? "Saved: the source in OBS follows at once." : "Saved: the source in OBS and the preview follow at once.");
    } catch (error) {
      setErrors(formErrorsOf(error));
      toast("error", messageOf(error));
    }
  };

  return (
    <section class="card stack overlay-editor" data-source-id={source.id} aria-label={`Options of ${labelOf(source)}`}>
      <h2>{labelOf(source)}</h2>
      {source.browser_source_type === "scenes" ? (
        <SceneEditor parts={(draft.parts as ScenePart[] | undefined) ?? []} sources={sources} onChange={(parts) => setDraft({ ...draft, parts })} />
      ) : null}
      <SettingsForm value={draft} onChange={setDraft} errors={errors} />
      <FormErrors errors={errors} />
      <div class="toolbar">
        <button type="button" class="button primary" onClick={() => void save(draft)}>
          Save
        </button>
        <button type="button" class="button secondary" onClick={() => setDraft(source.settings)}>
          Undo changes
        </button>
      </div>
      <h3>Live preview</h3>
      {source.browser_source_url === null ? (
        // A manager never gets a source's address (it would show the channel anywhere): no preview.
        <p class="muted" data-preview="withheld">
          The preview needs the source&apos;s address, which only the streamer sees: your saves reach the streamer&apos;s OBS at once.
        </p>
      ) : (
        <>
          <p class="muted">The real page, as OBS shows it (on a dark background); it follows every save.</p>
          <iframe class="overlay-preview" title={`Preview of ${labelOf(source)}`} src={source.browser_source_url} allow="autoplay" referrerpolicy="no-referrer" />
        </>
      )}
    </section>
  );
}

/** Overlays: chat box, event list, emote wall, effect alerts, scenes (drag to lay out) and read-aloud alerts, each with a live preview. */
export default function Overlays() {
  const client = useClient();
  const toast = useToast();
  const { channel } = useChannel();
  const loaded = useLoad(async (): Promise<BrowserSource[]> => (await client.browserSources.list()).data, [client]);
  const [selected, setSelected] = useState<number | null>(null);
  const replace = (next: BrowserSource) => loaded.set((list) => [...(list ?? []).filter((s) => s.id !== next.id), next].sort((a, b) => a.id - b.id));

  const add = async (type: (typeof OVERLAYS)[number]["type"]) => {
    try {
      const identifier = type === "scenes" ? `scene-${Date.now().toString(36)}` : undefined;
      const source = await client.browserSources.generate({ browser_source_type: type, ...(identifier ? { identifier } : {}) });
      replace(source);
      setSelected(source.id);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  return (
    <div class="stack">
      <p class="lead">
        {channel === null
          ? "Overlays for OBS: configure each one here and watch it live; copy its address on the Browser sources page."
          : `Overlays of ${channel.name}: configure each one here; ${channel.name} copies its address into OBS.`}
      </p>
      <div class="toolbar" role="group" aria-label="Add an overlay">
        {OVERLAYS.filter((o) => o.type !== "alerts").map((o) => (
          <button key={o.type} type="button" class="button secondary small" title={o.what} onClick={() => void add(o.type)}>
            Add {o.label.toLowerCase()}
          </button>
        ))}
      </div>
      <LoadState loaded={loaded} what="Overlays">
        {(sources) => {
          const overlays = sources.filter((s) => OVERLAYS.some((o) => o.type === s.browser_source_type));
          const current = overlays.find((s) => s.id === selected) ?? overlays[0];
          return overlays.length === 0 ? (
            <p class="card muted">No overlays yet: add one above.</p>
          ) : (
            <div class="stack">
              <label class="field">
                <span>Overlay</span>
                <select value={String(current?.id ?? "")} onChange={(e) => setSelected(Number((e.currentTarget as HTMLSelectElement).value))}>
                  {overlays.map((s) => (
                    <option key={s.id} value={String(s.id)}>
                      {labelOf(s)}
                    </option>
                  ))}
                </select>
              </label>
              {current ? <Editor key={current.id} source={current} sources={sources} onSaved={replace} /> : null}
            </div>
          );
        }}
      </LoadState>
      <SpeechPanel />
    </div>
  );
}
