import type { BotSettingsInput, SystemCommandsView } from "@ovation/client";
import { useState } from "preact/hooks";
import { Link } from "wouter-preact";
import { messageOf } from "../../ui/errors.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

type Settings = SystemCommandsView["settings"];
type CommandName = SystemCommandsView["commands"][number]["name"];

/** What each built-in command does, as a streamer reads it. */
const WHAT: Readonly<Record<CommandName, string>> = {
  help: "Lists your visible commands; !help <command> explains one.",
  language: "Shows the bot's language; !language de|en switches it.",
  visuals: "Shows or hides alerts and goal bars in your browser sources.",
  effects: "Shows or hides the effect-alerts browser source.",
  sounds: "Plays alerts with or without their sound.",
};

type Level = Settings["levels"][CommandName];

/** The levels, lowest first, as a streamer reads them (each includes those above it). */
const LEVELS: Readonly<Record<Level, string>> = {
  everyone: "Everyone",
  subscriber: "Subscribers and up",
  vip: "VIPs and up",
  moderator: "Moderators and the streamer",
  broadcaster: "The streamer only",
};
const LANGUAGES: Readonly<Record<string, string>> = { en: "English", de: "Deutsch (German)" };
const SWITCHES = [
  { key: "visuals", label: "Visuals", what: "Alerts and goal bars show in the browser sources." },
  { key: "effects", label: "Effects", what: "The effect-alerts browser source shows." },
  { key: "sounds", label: "Sounds", what: "Alerts play their sound." },
] as const;

/**
 * The page's state. Every change saves at once (`PUT .../system-commands` with the whole settings,
 * as the API replaces them); the change shows at once and a refusal puts it back and says why.
 */
function SystemCommandsEditor({ view, onSaved }: { view: SystemCommandsView; onSaved: (view: SystemCommandsView) => void }) {
  const client = useClient();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const settings = view.settings;
  const save = async (change: Partial<Settings>, what: string) => {
    const next: Settings = { ...settings, ...change };
    setBusy(true);
    onSaved({ ...view, settings: next, commands: view.commands.map((c) => ({ ...c, enabled: !next.disabled_commands.includes(c.name), level: next.levels[c.name] })) });
    try {
      onSaved(await client.systemCommands.replace(next satisfies BotSettingsInput));
      toast("success", `Saved: ${what}.`);
    } catch (error) {
      onSaved(view);
      toast("error", messageOf(error));
    } finally {
      setBusy(false);
    }
  };
  const flip = (key: (typeof SWITCHES)[number]["key"], label: string, on: boolean) => {
    const change: Partial<Settings> = {};
    change[key] = on;
    return save(change, `${label} ${on ? "on" : "off"}`);
  };
  const setLevel = (name: CommandName, level: Level) => save({ levels: { ...settings.levels, [name]: level } }, `!${name} for ${LEVELS[level].toLowerCase()}`);
  const toggle = (name: CommandName, on: boolean) =>
    save({ disabled_commands: on ? settings.disabled_commands.filter((n) => n !== name) : [...settings.disabled_commands, name] }, `!${name} ${on ? "on" : "off"}`);
  return (
    <>
      <section class="card stack" aria-labelledby="system-commands-heading">
        <h2 id="system-commands-heading">Built-in commands</h2>
        <div class="table-wrap">
          <table class="data data-table" aria-describedby="system-commands-heading">
            <thead>
              <tr>
                <th scope="col">Command</th>
                <th scope="col">On</th>
                <th scope="col">Who may use it</th>
                <th scope="col">What it does</th>
              </tr>
            </thead>
            <tbody>
              {view.commands.map((command) => (
                <tr key={command.name} data-command={command.name}>
                  <th scope="row" data-label="Command">
                    <code>!{command.name}</code>
                  </th>
                  <td data-label="On">
                    <label>
                      <input type="checkbox" aria-label={`!${command.name} on`} checked={command.enabled} disabled={busy} onChange={(e) => void toggle(command.name, e.currentTarget.checked)} />{" "}
                      <span class={command.enabled && command.replaced_by === null ? "badge active" : "badge"}>{command.replaced_by !== null ? "replaced" : command.enabled ? "on" : "off"}</span>
                    </label>
                  </td>
                  <td data-label="Who may use it">
                    <select aria-label={`Who may use !${command.name}`} name={`levels.${command.name}`} value={command.level} disabled={busy} onChange={(e) => void setLevel(command.name, e.currentTarget.value as Level)}>
                      {(Object.keys(LEVELS) as Level[]).map((level) => (
                        <option key={level} value={level}>
                          {LEVELS[level]}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td data-label="What it does">
                    {WHAT[command.name]}
                    {command.replaced_by === null ? null : (
                      <span class="cell-sub" data-replaced-by={command.replaced_by}>
                        {" "}
                        Your own command of this name answers instead (<Link href={`/commands/${command.replaced_by}`}>edit it</Link>).
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class="hint">
          Who may use it: for !help, who gets an answer (the bot stays silent to the others); for the other commands, who may change the setting from chat (everyone may still ask what it is).
          A command switched off gets no answer; one of your own commands of the same name answers instead of it.
        </p>
      </section>
      <section class="card stack" aria-labelledby="bot-language-heading">
        <h2 id="bot-language-heading">Bot language</h2>
        <div class="field">
          <label for="bot-language">Language of the bot&apos;s own messages</label>
          <select id="bot-language" name="language" value={settings.language} disabled={busy} aria-describedby="bot-language-hint" onChange={(e) => void save({ language: e.currentTarget.value as Settings["language"] }, "bot language")}>
            {view.languages.map((language) => (
              <option key={language} value={language}>
                {LANGUAGES[language] ?? language}
              </option>
            ))}
          </select>
          <p class="hint" id="bot-language-hint">
            The answers of these commands, giveaway announcements and auto-moderation warnings. Your own commands and timers answer with the text you wrote.
          </p>
        </div>
      </section>
      <section class="card stack" aria-labelledby="overlay-switches-heading">
        <h2 id="overlay-switches-heading">Overlay switches</h2>
        <p class="hint">The same switches as !visuals, !effects and !sounds in chat; your browser sources follow a change at once.</p>
        <ul class="item-list">
          {SWITCHES.map((item) => (
            <li key={item.key}>
              <label>
                <input type="checkbox" name={item.key} checked={settings[item.key]} disabled={busy} onChange={(e) => void flip(item.key, item.label, e.currentTarget.checked)} />{" "}
                <strong>{item.label}</strong> <span class="muted">{item.what}</span>
              </label>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

/** System commands: the built-in commands on or off, who may use each, the bot's language, the overlay switches. */
export default function SystemCommands() {
  const client = useClient();
  const loaded = useLoad(() => client.systemCommands.get(), [client]);
  return (
    <div class="stack">
      <p class="lead">The commands every bot knows without setup, the language the bot answers in, and what your overlays show.</p>
      <LoadState loaded={loaded} what="System commands">
        {(view) => <SystemCommandsEditor view={view} onSaved={(saved) => loaded.set(() => saved)} />}
      </LoadState>
    </div>
  );
}
