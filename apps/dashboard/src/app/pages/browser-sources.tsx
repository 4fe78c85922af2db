import type { BrowserSource, ChannelBrowserSource } from "@ovation/client";
import { useState } from "preact/hooks";
import { messageOf } from "../ui/errors.js";
import type { FieldErrors } from "../ui/errors.js";
import { FormErrors, SelectField, TextField } from "../ui/field.js";
import { useConfirm } from "../ui/confirm.js";
import { useToast } from "../ui/toast.js";
import { useChannel } from "../channel.js";
import { useClient } from "./kit/client.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";
import { formErrorsOf } from "./kit/form-errors.js";
import { useCopy } from "./kit/copy.js";

/** The browser-source types, with what each shows in OBS. */
const TYPES = [
  { value: "alerts", label: "Alerts", what: "Shows your alerts (follows, subscriptions, donations…). Without an identifier it follows your active alert set; an alert set id pins that set." },
  { value: "effect-alerts", label: "Effect alerts", what: "Reserved for full-screen effects (no identifier): the page joins your room and stays transparent, so nothing shows on stream yet." },
  { value: "goalbars", label: "Goal bar", what: "One of your goal bars (make them on the Goal bars page)." },
  { value: "scenes", label: "Scenes", what: "Reserved for scenes (the identifier names one): the page joins your room and stays transparent, so nothing shows on stream yet." },
] as const;

const typeLabel = (type: string) => TYPES.find((t) => t.value === type)?.label ?? type;

/** The address with the secret token masked, for display (the real one is copied or opened). */
function masked(url: string, token: string): string {
  return url.replace(token, `${token.slice(0, 4)}…${token.slice(-4)}`);
}

/** Goal bar titles by id, to name goal-bar sources by their goal instead of its number. */
type GoalTitles = ReadonlyMap<string, string>;

/**
 * One source. On a channel managed as editor the server withholds the address and its token (they
 * would show the streamer's alerts anywhere): the row says so, and only the owner copies, opens or
 * renews it.
 */
function SourceRow({ source, onChanged, goals }: { source: ChannelBrowserSource; onChanged: (next: ChannelBrowserSource) => void; goals: GoalTitles }) {
  const client = useClient();
  const confirm = useConfirm();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const shown = source.identifier === null ? null : source.browser_source_type === "goalbars" ? (goals.get(source.identifier) ?? `#${source.identifier}`) : source.identifier;
  const name = `${typeLabel(source.browser_source_type)}${shown !== null ? ` "${shown}"` : ""}`;

  const copyText = useCopy();
  const url = source.browser_source_url;
  const token = source.access_token;
  const copy = (address: string) => copyText(address, `Copied the address of ${name}. Paste it into an OBS browser source.`);

  const regenerate = async () => {
    const ok = await confirm({
      title: `New address for ${name}?`,
      message: "The current address stops working at once: every OBS scene using it goes blank until you paste the new one.",
      confirmLabel: "Make a new address",
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
    try {
      const next = await client.browserSources.regenerate(source.id);
      onChanged(next);
      toast("success", `${name} has a new address. Copy it into OBS.`);
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="card source-card" data-source-id={source.id} data-type={source.browser_source_type}>
      <div class="source-head">
        <h2 class="card-title">{name}</h2>
        <span class="badge">#{source.id}</span>
      </div>
      {url === null || token === null ? (
        <p class="hint source-secret" data-secret="withheld">
          Only the channel&apos;s owner sees this source&apos;s address: it would show their alerts anywhere. Ask them to paste it into OBS.
        </p>
      ) : (
        <>
          <label class="visually-hidden" for={`source-url-${source.id}`}>
            Address of {name}
          </label>
          <input id={`source-url-${source.id}`} class="source-url" type="text" readOnly value={masked(url, token)} data-url={url} />
          <div class="toolbar">
            <button type="button" class="button primary small" onClick={() => void copy(url)}>
              Copy address
            </button>
            <a class="button secondary small" href={url} target="_blank" rel="noopener noreferrer">
              Open preview
            </a>
            <span class="spacer" />
            <button type="button" class="button secondary small" disabled={busy} onClick={() => void regenerate()}>
              New address…
            </button>
          </div>
        </>
      )}
    </li>
  );
}

function CreateSource({ onCreated, goals }: { onCreated: (source: ChannelBrowserSource) => void; goals: GoalTitles }) {
  const client = useClient();
  const toast = useToast();
  const [type, setType] = useState<string>("alerts");
  const [identifier, setIdentifier] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const chosen = TYPES.find((t) => t.value === type);

  const create = async (event: Event) => {
    event.preventDefault();
    try {
      const body = { browser_source_type: type as BrowserSource["browser_source_type"], ...(identifier.trim() === "" ? {} : { identifier: identifier.trim() }) };
      const source = await client.browserSources.generate(body);
      setErrors({});
      setIdentifier("");
      onCreated(source);
      toast("success", `${typeLabel(source.browser_source_type)} source ready.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };

  return (
    <form class="card stack" aria-labelledby="new-source-heading" onSubmit={(event) => void create(event)}>
      <h2 id="new-source-heading">New browser source</h2>
      <div class="form-grid">
        <SelectField label="Type" name="browser_source_type" value={type} onChange={(next) => (setType(next), setIdentifier(""))} options={TYPES.map((t) => ({ value: t.value, label: t.label }))} errors={errors} hint={chosen?.what} />
        {type === "goalbars" ? (
          <SelectField
            label="Goal bar"
            name="identifier"
            value={identifier}
            onChange={setIdentifier}
            options={[...goals].map(([id, title]) => ({ value: id, label: title }))}
            emptyLabel={goals.size === 0 ? "No goal bars yet" : "Pick a goal bar"}
            errors={errors}
          />
        ) : (
          <TextField label="Identifier (optional)" name="identifier" value={identifier} onChange={setIdentifier} errors={errors} maxLength={64} hint="Letters, digits, - and _. The same type and identifier give back the same source." input={{ autocomplete: "off", spellcheck: false }} />
        )}
      </div>
      <FormErrors errors={errors} shown={["browser_source_type", "identifier"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Create
        </button>
      </div>
    </form>
  );
}

/** Browser sources: create per type, copy the address, open a preview, make a new address (with confirmation). */
export default function BrowserSources() {
  const client = useClient();
  const { channel } = useChannel();
  const loaded = useLoad(async (): Promise<ChannelBrowserSource[]> => (await client.browserSources.list()).data, []);
  // Without widgets:manage the list is empty: goal-bar sources are then named by number.
  const goalList = useLoad(async () => (await client.goalBars.list().catch(() => ({ data: [] }))).data, []);
  const goals: GoalTitles = new Map((goalList.data ?? []).map((g) => [String(g.id), g.goal_bar.title]));
  const replace = (next: ChannelBrowserSource) => loaded.set((list) => [...(list ?? []).filter((s) => s.id !== next.id), next].sort((a, b) => a.id - b.id));
  return (
    <div class="stack">
      {channel === null ? (
        <p class="lead">Add these addresses to OBS (or any streaming software) as browser sources. Each address holds a secret: keep it private, make a new one if it leaks.</p>
      ) : (
        <p class="lead">
          {channel.name}&apos;s browser sources: you may add sources; {channel.name} copies their addresses into OBS (each holds a secret only the owner sees).
        </p>
      )}
      <LoadState loaded={loaded} what="Browser sources">
        {(sources) =>
          sources.length === 0 ? (
            <p class="card muted">No browser sources yet.</p>
          ) : (
            <ul class="source-list" aria-label="Your browser sources">
              {sources.map((source) => (
                <SourceRow key={source.id} source={source} onChanged={replace} goals={goals} />
              ))}
            </ul>
          )
        }
      </LoadState>
      <CreateSource onCreated={replace} goals={goals} />
    </div>
  );
}
