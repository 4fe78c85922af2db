import type { Shoutout } from "@ovation/client";
import { useState } from "preact/hooks";
import type { FieldErrors } from "../../ui/errors.js";
import { messageOf } from "../../ui/errors.js";
import { CheckboxField, FormErrors, NumberField, TextField } from "../../ui/field.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { formErrorsOf } from "../kit/form-errors.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

type Settings = { cooldown_seconds: number; target_cooldown_minutes: number; native: boolean; message: string };

function SettingsForm({ settings, onSaved }: { settings: Settings; onSaved: (next: Settings) => void }) {
  const client = useClient();
  const toast = useToast();
  const [cooldown, setCooldown] = useState<number | null>(settings.cooldown_seconds);
  const [target, setTarget] = useState<number | null>(settings.target_cooldown_minutes);
  const [native, setNative] = useState(settings.native);
  const [message, setMessage] = useState(settings.message);
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = async (event: Event) => {
    event.preventDefault();
    try {
      onSaved(await client.shoutouts.configure({ cooldown_seconds: cooldown ?? 0, target_cooldown_minutes: target ?? 0, native, message }));
      setErrors({});
      toast("success", "Shoutout settings saved.");
    } catch (error) {
      setErrors(formErrorsOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="shoutout-settings-heading" onSubmit={(event) => void save(event)}>
      <h2 id="shoutout-settings-heading">Settings</h2>
      <div class="form-grid">
        <NumberField label="Seconds between two shoutouts" name="cooldown_seconds" value={cooldown} onChange={setCooldown} errors={errors} min={0} max={3600} step={1} />
        <NumberField label="Minutes before the same streamer again" name="target_cooldown_minutes" value={target} onChange={setTarget} errors={errors} min={0} max={1440} step={1} />
        <CheckboxField label="Also give Twitch's own shoutout (Twitch allows one every 2 minutes, the same streamer once an hour)" name="native" checked={native} onChange={setNative} errors={errors} />
        <TextField label="Message (optional)" name="message" value={message} onChange={setMessage} errors={errors} maxLength={300} placeholder="Go check out {name} at {url}! They were last streaming {category}." />
      </div>
      <FormErrors errors={errors} shown={["cooldown_seconds", "target_cooldown_minutes", "native", "message"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Save
        </button>
      </div>
    </form>
  );
}

function GiveShoutout({ onGiven }: { onGiven: (shoutout: Shoutout) => void }) {
  const client = useClient();
  const toast = useToast();
  const [platform, setPlatform] = useState("twitch");
  const [username, setUsername] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const give = async (event: Event) => {
    event.preventDefault();
    try {
      const shoutout = await client.shoutouts.give({ platform, username });
      setErrors({});
      onGiven(shoutout);
      toast("success", shoutout.text);
    } catch (error) {
      setErrors(formErrorsOf(error));
      toast("error", messageOf(error));
    }
  };
  return (
    <form class="card stack" aria-labelledby="give-shoutout-heading" onSubmit={(event) => void give(event)}>
      <h2 id="give-shoutout-heading">Give a shoutout</h2>
      <div class="form-grid">
        <TextField label="Platform" name="platform" value={platform} onChange={setPlatform} errors={errors} required maxLength={64} />
        <TextField label="Streamer's login" name="username" value={username} onChange={setUsername} errors={errors} required maxLength={51} />
      </div>
      <FormErrors errors={errors} shown={["platform", "username"]} />
      <div class="actions">
        <button type="submit" class="button primary">
          Shout out
        </button>
      </div>
    </form>
  );
}

/** Shoutouts: `!so @name` for moderators, or from here; the latest with how the platform's own went. */
export default function Shoutouts() {
  const client = useClient();
  const loaded = useLoad(() => client.shoutouts.list(), []);
  return (
    <div class="stack">
      <p class="lead">Moderators type !so @name: the bot says who to check out, with the link and what they last streamed.</p>
      <LoadState loaded={loaded} what="The shoutouts">
        {({ settings, recent }) => (
          <>
            <GiveShoutout onGiven={(shoutout) => loaded.set((current) => (current ? { ...current, recent: [shoutout, ...current.recent] } : current))} />
            <SettingsForm settings={settings} onSaved={(next) => loaded.set((current) => (current ? { ...current, settings: next } : current))} />
            <section class="card stack" aria-labelledby="recent-shoutouts-heading">
              <h2 id="recent-shoutouts-heading">Latest shoutouts</h2>
              {recent.length === 0 ? (
                <p class="muted">None yet.</p>
              ) : (
                <ul class="entries" aria-label="Latest shoutouts">
                  {recent.map((s) => (
                    <li key={`${s.at}:${s.login}`} data-shoutout={s.login}>
                      <strong>{s.name}</strong> <span class="muted">{s.platform}</span> · {s.category || "no category"} · {new Date(s.at).toLocaleString()} · by {s.by}
                      {s.native === "done" ? <span class="badge active">platform shoutout</span> : s.native === "off" ? null : <span class="muted"> · no platform shoutout: {s.detail}</span>}
                    </li>
                  ))}
                </ul>
              )}
            </section>
          </>
        )}
      </LoadState>
    </div>
  );
}
