import { ENGINE_DEFAULT_TEMPLATE } from "@ovation/core/alerts";
import type { AlertTemplate, CatalogAlertType, TemplateLayer } from "@ovation/core/alerts";
import type { PreviewAlert } from "@ovation/browser-source/preview";
import { useEffect, useMemo, useState } from "preact/hooks";
import { Link } from "wouter-preact";
import { useClient } from "../kit/client.js";
import { useConfirm } from "../../ui/confirm.js";
import { errorsUnder, fieldErrorsOf, messageOf } from "../../ui/errors.js";
import type { FieldErrors } from "../../ui/errors.js";
import { CheckboxField, FormErrors, SelectField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import type { PageProps } from "../kit/page.js";
import { ConditionBuilder } from "./condition-builder.js";
import { describeCondition } from "./conditions.js";
import { bodyOf, draftOf, engineSetOf, validateDraft } from "./draft.js";
import type { AlertSetDraft } from "./draft.js";
import { EffectField } from "./effect-field.js";
import { ExplainView } from "./explain.js";
import { LayerForm } from "./layer-form.js";
import { AlertPreview } from "./preview.js";
import { SampleControls, sampleAlert } from "./sample.js";
import { conditionVariablesOf, platformsOf, useCatalog } from "./use-catalog.js";

type Tab = "default" | "types" | "variations";

function without(layer: TemplateLayer): Partial<AlertTemplate> {
  return Object.fromEntries(Object.entries(layer).filter(([, v]) => v !== null && v !== undefined)) as Partial<AlertTemplate>;
}

function move<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

function TypeDefaults({ draft, setDraft, errors, catalog }: { draft: AlertSetDraft; setDraft: (d: AlertSetDraft) => void; errors: FieldErrors; catalog: readonly CatalogAlertType[] }) {
  const [filter, setFilter] = useState("");
  const [open, setOpen] = useState<number | null>(null);
  const [adding, setAdding] = useState({ type: catalog[0]?.type ?? "follow", platform: String(catalog[0]?.platforms[0]?.platform ?? "twitch") });
  const inherited = { ...ENGINE_DEFAULT_TEMPLATE, ...without(draft.default) };
  const update = (i: number, change: Partial<AlertSetDraft["defaults"][number]>) => setDraft({ ...draft, defaults: draft.defaults.map((d, j) => (j === i ? { ...d, ...change } : d)) });
  const shown = draft.defaults.map((d, i) => ({ d, i })).filter(({ d }) => filter === "" || d.type === filter);
  const addType = catalog.find((t) => t.type === adding.type);
  return (
    <div class="stack">
      <p class="muted">Each alert type on each platform has a type default: its texts and settings over the set default. A turned-off type is not shown.</p>
      <div class="toolbar">
        <SelectField label="Show type" name="types.filter" value={filter} emptyLabel="All types" options={catalog.map((t) => ({ value: t.type, label: t.name }))} onChange={setFilter} />
      </div>
      <ul class="item-list">
        {shown.map(({ d, i }) => (
          <li key={i} class="item" data-type={d.type} data-platform={d.platform}>
            <div class="item-head">
              <button type="button" class="item-toggle" aria-expanded={open === i} onClick={() => setOpen(open === i ? null : i)}>
                <span class="item-title">{d.name || d.type}</span> <span class="muted">{d.platform}</span>
              </button>
              <span class={`badge${d.enabled ? " active" : ""}`}>{d.enabled ? "on" : "off"}</span>
              <button
                type="button"
                class="button secondary small"
                aria-label={`Remove the type default ${d.name} on ${d.platform}`}
                onClick={() => setDraft({ ...draft, defaults: draft.defaults.filter((_, j) => j !== i) })}
              >
                Remove
              </button>
            </div>
            {open === i ? (
              <div class="item-body stack">
                <div class="form-grid">
                  <TextField label="Name" name={`defaults.${i}.name`} value={d.name} errors={errors} onChange={(name) => update(i, { name })} />
                  <CheckboxField label="Show this type" name={`defaults.${i}.enabled`} checked={d.enabled} errors={errors} onChange={(enabled) => update(i, { enabled })} />
                </div>
                <EffectField name={`defaults.${i}.effect`} value={d.effect} errors={errors} onChange={(effect) => update(i, { effect })} />
                <LayerForm prefix={`defaults.${i}.default.`} layer={d.default} inherited={inherited} errors={errorsUnder(errors, `defaults.${i}.default.`)} onChange={(layer) => update(i, { default: layer })} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <div class="toolbar add-row">
        <SelectField
          label="Type"
          name="add.type"
          value={adding.type}
          options={catalog.map((t) => ({ value: t.type, label: t.name }))}
          onChange={(type) => setAdding({ type, platform: String(catalog.find((t) => t.type === type)?.platforms[0]?.platform ?? "twitch") })}
        />
        <SelectField label="Platform" name="add.platform" value={adding.platform} options={(addType?.platforms ?? []).map((p) => String(p.platform))} onChange={(platform) => setAdding({ ...adding, platform })} />
        <button
          type="button"
          class="button secondary"
          onClick={() => {
            const defaults = addType?.platforms.find((p) => p.platform === adding.platform)?.default ?? {};
            setDraft({ ...draft, defaults: [...draft.defaults, { type: adding.type, platform: adding.platform, name: addType?.name ?? adding.type, enabled: true, default: { ...defaults } }] });
            setOpen(draft.defaults.length);
          }}
        >
          Add type default
        </button>
      </div>
    </div>
  );
}

function Variations({ draft, setDraft, errors, catalog }: { draft: AlertSetDraft; setDraft: (d: AlertSetDraft) => void; errors: FieldErrors; catalog: readonly CatalogAlertType[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const inherited = { ...ENGINE_DEFAULT_TEMPLATE, ...without(draft.default) };
  const types = catalog.map((t) => ({ value: t.type, label: t.name }));
  const platforms = platformsOf(catalog);
  const variables = conditionVariablesOf(catalog);
  const update = (i: number, change: Partial<AlertSetDraft["variations"][number]>) => setDraft({ ...draft, variations: draft.variations.map((v, j) => (j === i ? { ...v, ...change } : v)) });
  return (
    <div class="stack">
      <p class="muted">A variation changes the alerts its condition matches. Every matching variation applies, in this order; later ones win.</p>
      <ol class="item-list">
        {draft.variations.map((v, i) => (
          <li key={i} class="item" data-variation={v.name}>
            <div class="item-head">
              <button type="button" class="item-toggle" aria-expanded={open === i} onClick={() => setOpen(open === i ? null : i)}>
                <span class="item-title">{v.name || `Variation ${i + 1}`}</span> <span class="muted">{describeCondition(v.conditions)}</span>
              </button>
              <div class="item-actions">
                <button type="button" class="icon-button" aria-label={`Move ${v.name} up`} disabled={i === 0} onClick={() => setDraft({ ...draft, variations: move(draft.variations, i, i - 1) })}>
                  ↑
                </button>
                <button type="button" class="icon-button" aria-label={`Move ${v.name} down`} disabled={i === draft.variations.length - 1} onClick={() => setDraft({ ...draft, variations: move(draft.variations, i, i + 1) })}>
                  ↓
                </button>
                <button type="button" class="button secondary small" aria-label={`Remove the variation ${v.name}`} onClick={() => setDraft({ ...draft, variations: draft.variations.filter((_, j) => j !== i) })}>
                  Remove
                </button>
              </div>
            </div>
            {open === i ? (
              <div class="item-body stack">
                <TextField label="Variation name" name={`variations.${i}.name`} value={v.name} errors={errors} onChange={(name) => update(i, { name })} />
                <ConditionBuilder name={`variations.${i}.conditions`} value={v.conditions} errors={errors} types={types} platforms={platforms} variables={variables} onChange={(conditions) => update(i, { conditions })} />
                <h4 class="sub-heading">What it changes</h4>
                <EffectField name={`variations.${i}.effect`} value={v.effect} errors={errors} onChange={(effect) => update(i, { effect })} />
                <LayerForm prefix={`variations.${i}.overrides.`} layer={v.overrides} inherited={inherited} errors={errorsUnder(errors, `variations.${i}.overrides.`)} onChange={(overrides) => update(i, { overrides })} />
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      <div class="toolbar">
        <button
          type="button"
          class="button secondary"
          onClick={() => {
            setDraft({ ...draft, variations: [...draft.variations, { name: `Variation ${draft.variations.length + 1}`, conditions: {}, overrides: {} }] });
            setOpen(draft.variations.length);
          }}
        >
          Add variation
        </button>
      </div>
    </div>
  );
}

function Editor({ id, initial, catalog, onSaved }: { id: number; initial: Record<string, unknown>; catalog: CatalogAlertType[]; onSaved: (set: Record<string, unknown>) => void }) {
  const api = useClient();
  const toast = useToast();
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [saved, setSaved] = useState(() => JSON.stringify(bodyOf(draftOf(initial))));
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [tab, setTab] = useState<Tab>("variations");
  const [busy, setBusy] = useState(false);
  const first = catalog.find((t) => t.type === "follow") ?? catalog[0];
  const [sample, setSample] = useState<PreviewAlert>(() => sampleAlert(catalog, first?.type ?? "follow", String(first?.platforms[0]?.platform ?? "twitch")));
  const localErrors = useMemo(() => validateDraft(draft), [draft]);
  const engineSet = useMemo(() => (Object.keys(localErrors).length === 0 ? engineSetOf(draft) : null), [draft, localErrors]);
  const dirty = JSON.stringify(bodyOf(draft)) !== saved;
  const errors: FieldErrors = { ...serverErrors, ...localErrors };
  const change = (next: AlertSetDraft) => {
    setDraft(next);
    setServerErrors({});
  };
  const save = async () => {
    setBusy(true);
    try {
      const set = await api.alertSets.replace(id, bodyOf(draft) as Parameters<typeof api.alertSets.replace>[1]);
      setSaved(JSON.stringify(bodyOf(draft)));
      onSaved(set);
      toast("success", "Alert set saved.");
    } catch (error) {
      setServerErrors(fieldErrorsOf(error));
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const sendTest = async () => {
    try {
      await api.alerts.test({ template: sample.type, platform: sample.platform, data: sample.data } as Parameters<typeof api.alerts.test>[0]);
      toast("success", `Test ${sample.type} alert sent to your browser sources.`);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  const shownKeys = Object.keys(errors).filter((k) => k.startsWith("default.") || k.startsWith("defaults.") || k.startsWith("variations.") || k === "name");
  const tabs: { id: Tab; label: string }[] = [
    { id: "default", label: "Set default" },
    { id: "types", label: `Type defaults (${draft.defaults.length})` },
    { id: "variations", label: `Variations (${draft.variations.length})` },
  ];
  return (
    <div class="editor">
      <div class="editor-main stack">
        <div class="toolbar editor-bar">
          <TextField label="Set name" name="name" value={draft.name} errors={errors} onChange={(name) => change({ ...draft, name })} />
          <span class="spacer" />
          <span class="muted" role="status">
            {dirty ? "Unsaved changes" : "Saved"}
          </span>
          <button type="button" class="button primary" disabled={busy || !dirty} onClick={() => void save()}>
            Save
          </button>
        </div>
        <FormErrors errors={serverErrors} shown={shownKeys} />
        {Object.keys(localErrors).length > 0 ? (
          <p class="field-error" role="alert">
            {Object.keys(localErrors).length} field{Object.keys(localErrors).length === 1 ? " has" : "s have"} a problem: {Object.keys(localErrors).slice(0, 3).join(", ")}
          </p>
        ) : null}
        <div
          class="tabs"
          role="tablist"
          aria-label="Parts of the alert set"
          onKeyDown={(event) => {
            // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab leaves the list.
            if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
            const index = tabs.findIndex((t) => t.id === tab);
            const next = tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
            if (!next) return;
            setTab(next.id);
            document.getElementById(`tab-${next.id}`)?.focus();
          }}
        >
          {tabs.map((t) => (
            <button key={t.id} type="button" role="tab" class="tab" id={`tab-${t.id}`} tabIndex={tab === t.id ? 0 : -1} aria-selected={tab === t.id} aria-controls="tab-panel" onClick={() => setTab(t.id)}>
              {t.label}
            </button>
          ))}
        </div>
        <div id="tab-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
          {tab === "default" ? (
            <div class="stack">
              <p class="muted">Settings every alert of this set starts from (over the engine's defaults). Type defaults and variations can change them.</p>
              <LayerForm prefix="default." layer={draft.default} inherited={ENGINE_DEFAULT_TEMPLATE} errors={errorsUnder(errors, "default.")} onChange={(layer) => change({ ...draft, default: layer })} />
            </div>
          ) : null}
          {tab === "types" ? <TypeDefaults draft={draft} setDraft={change} errors={errors} catalog={catalog} /> : null}
          {tab === "variations" ? <Variations draft={draft} setDraft={change} errors={errors} catalog={catalog} /> : null}
        </div>
      </div>
      <aside class="editor-side stack" aria-label="Preview">
        <section class="card stack" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <AlertPreview set={engineSet} alert={sample} />
          <SampleControls catalog={catalog} value={sample} onChange={setSample} />
          <div class="toolbar">
            <span class="muted">{dirty ? "Save first: test alerts use the saved set." : "Plays on the browser sources that show this set."}</span>
            <span class="spacer" />
            <button type="button" class="button secondary" onClick={() => void sendTest()}>
              Send test alert
            </button>
          </div>
        </section>
        <details class="card explain-section" open={window.matchMedia("(min-width: 1101px)").matches}>
          <summary>Why it looks like this</summary>
          <ExplainView set={engineSet} alert={sample} />
        </details>
      </aside>
    </div>
  );
}

/** `/alert-sets/:id`: edit one set (forms for every layer, conditions, preview, explain, test alert). */
export default function AlertSetEditorPage({ params }: PageProps) {
  const api = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const id = Number(params.id);
  const { catalog, error: catalogError } = useCatalog();
  const [set, setSet] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    api.alertSets.get(id).then(
      (answer) => !cancelled && setSet(answer),
      (e: unknown) => !cancelled && setError(messageOf(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [api, id]);
  if (!Number.isSafeInteger(id)) return <p class="field-error">This is not an alert set address.</p>;
  if (error || catalogError) return <p class="field-error" role="alert">{error ?? messageOf(catalogError)}</p>;
  if (!set || !catalog) return <p class="loading" role="status">Loading the alert set…</p>;
  if (set.version === 3) {
    return (
      <div class="card stack">
        <p>
          <strong>{String(set.name)}</strong> is an AE3 set. The editor works on AE4 sets: migrate it first (one-way; texts, settings and tiers become type defaults and variations).
        </p>
        <div class="actions">
          <Link href="/alert-sets" class="button secondary">
            Back to the list
          </Link>
          <button
            type="button"
            class="button primary"
            onClick={async () => {
              if (!(await confirm({ title: "Migrate to AE4?", message: "The set is converted to AE4. This cannot be undone.", confirmLabel: "Migrate" }))) return;
              try {
                setSet(await api.alertSets.migrate(id));
                toast("success", "Migrated to AE4.");
              } catch (e) {
                toast("error", messageOf(e));
              }
            }}
          >
            Migrate to AE4
          </button>
        </div>
      </div>
    );
  }
  return <Editor key={String(set.updated_at)} id={id} initial={set} catalog={catalog} onSaved={() => undefined} />;
}
