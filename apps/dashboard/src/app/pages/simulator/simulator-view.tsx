import type { CatalogAlertType } from "@ovation/core/alerts";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { FormErrors, SelectField, TextAreaField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { platformsOf, useCatalog } from "../alert-sets/use-catalog.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";

/** The stream events every platform can simulate besides its alert types. */
const STREAM_EVENTS = [
  { value: "stream.online", label: "Stream goes live" },
  { value: "stream.offline", label: "Stream ends" },
] as const;

/** The events of a platform: its catalog types by name, then going live and offline. */
function eventsOf(catalog: readonly CatalogAlertType[], platform: string): { value: string; label: string }[] {
  const types = catalog.filter((t) => t.platforms.some((p) => String(p.platform) === platform)).map((t) => ({ value: t.type, label: t.name }));
  return [...types, ...STREAM_EVENTS];
}

function SimulatorForm({ catalog }: { catalog: readonly CatalogAlertType[] }) {
  const client = useClient();
  const toast = useToast();
  const platforms = platformsOf(catalog);
  const [platform, setPlatform] = useState(platforms.includes("twitch") ? "twitch" : (platforms[0] ?? "twitch"));
  const [type, setType] = useState("follow");
  const [name, setName] = useState("");
  const [data, setData] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const events = eventsOf(catalog, platform);
  const chosen = events.some((e) => e.value === type) ? type : (events[0]?.value ?? "follow");
  const streamEvent = chosen.startsWith("stream.");

  const send = async (event: Event) => {
    event.preventDefault();
    let extra: Record<string, unknown> | undefined;
    if (!streamEvent && data.trim() !== "") {
      try {
        const read: unknown = JSON.parse(data);
        if (read === null || typeof read !== "object" || Array.isArray(read)) throw new Error("not an object");
        extra = read as Record<string, unknown>;
      } catch {
        setErrors({ data: ['The data must be a JSON object, for example {"amount": 500}.'] });
        return;
      }
    }
    setBusy(true);
    try {
      const sent = await client.simulator.simulate({ type: chosen, platform, ...(!streamEvent && name.trim() !== "" ? { name: name.trim() } : {}), ...(extra ? { data: extra } : {}) });
      setErrors({});
      const label = events.find((e) => e.value === chosen)?.label ?? chosen;
      toast("success", `Simulated "${label}" on ${sent.notification.subscription.condition.platform}.`);
    } catch (error) {
      setErrors(formErrorsOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card stack" aria-labelledby="simulate-heading" onSubmit={(event) => void send(event)}>
      <h2 id="simulate-heading">Simulate an event</h2>
      <div class="form-grid">
        <SelectField label="Platform" name="platform" value={platform} options={platforms} errors={errors} onChange={setPlatform} />
        <SelectField label="Event" name="type" value={chosen} options={events} errors={errors} onChange={setType} />
        {streamEvent ? null : <TextField label="Who (optional)" name="name" value={name} onChange={setName} errors={errors} maxLength={100} hint="The viewer's name; the catalog's example otherwise." input={{ autocomplete: "off", spellcheck: false }} />}
      </div>
      {streamEvent ? null : (
        <TextAreaField label="More data (JSON, optional)" name="data" value={data} onChange={setData} errors={errors} rows={3} spellcheck={false} hint='Over the example values, for example {"amount": 500} or {"count": 120}.' />
      )}
      <FormErrors errors={errors} shown={["platform", "type", "name", "data"]} />
      <div class="actions">
        <button type="submit" class="button primary" disabled={busy}>
          Send
        </button>
      </div>
    </form>
  );
}

/** The simulator page (a chunk of its own). */
export default function Simulator() {
  const { catalog, error } = useCatalog();
  return (
    <div class="stack">
      <p class="lead">
        Try your setup without going live: a simulated event takes the same path as one from the platform. Alerts play in your browser sources, goal bars move,
        timers and live-only commands see the stream live. The alert log marks it "simulated".
      </p>
      {error !== null ? <p class="card field-error">The alert catalog could not be loaded.</p> : catalog === null ? <p class="muted loading-line">Loading…</p> : <SimulatorForm catalog={catalog} />}
    </div>
  );
}

