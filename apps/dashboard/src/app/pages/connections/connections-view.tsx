import type { Connection, ConnectionStatus } from "@ovation/client";
import { useState } from "preact/hooks";
import { useApp } from "../../app-context.js";
import { useConfirm } from "../../ui/confirm.js";
import { messageOf } from "../../ui/errors.js";
import { useToast } from "../../ui/toast.js";
import { useClient } from "../kit/client.js";
import { LoadState } from "../kit/load-state.js";
import { useLoad } from "../kit/use-load.js";

/** The platforms a streamer can connect, in the order shown. */
const PLATFORMS = [
  { id: "twitch", name: "Twitch" },
  { id: "youtube", name: "YouTube" },
  { id: "kick", name: "Kick" },
  { id: "tiktok", name: "TikTok" },
] as const;

type PlatformId = (typeof PLATFORMS)[number]["id"];

/** A status's badge text and tone. */
const STATE_BADGE: Readonly<Record<ConnectionStatus["state"], { text: string; tone: "" | "active" | "bad" }>> = {
  serving: { text: "Serving", tone: "active" },
  starting: { text: "Starting", tone: "" },
  off: { text: "Bot off", tone: "" },
  needs_reconnect: { text: "Needs reconnecting", tone: "bad" },
  missing_scope: { text: "Needs a permission", tone: "bad" },
  unavailable: { text: "Not available", tone: "bad" },
};

/** What linking a platform failed with, in a streamer's words. */
function linkProblem(name: string, error: unknown): string {
  if (error !== null && typeof error === "object" && (error as { code?: unknown }).code === "OVATION_ERR_IDENTITY_PLATFORM_UNKNOWN") {
    return `${name} is not set up on this server yet. Ask the person who runs it to add a ${name} app.`;
  }
  return messageOf(error);
}

function ConnectedCard({
  connection,
  name,
  busy,
  onReconnect,
  onToggle,
  onDisconnect,
}: {
  connection: Connection;
  name: string;
  busy: boolean;
  onReconnect: () => void;
  onToggle: (on: boolean) => void;
  onDisconnect: () => void;
}) {
  const status = connection.status;
  const badge = STATE_BADGE[status.state];
  const botOn = connection.bot_enabled;
  const toggleId = `bot-${connection.id}`;
  return (
    <div class="stack">
      <div class="connection-account">
        {connection.avatar_url !== null ? <img class="connection-avatar" src={connection.avatar_url} alt="" width={40} height={40} referrerpolicy="no-referrer" onError={(event) => (event.currentTarget.style.visibility = "hidden")} /> : <span class="connection-avatar" aria-hidden="true" />}
        <div>
          <strong class="connection-name">{connection.display_name}</strong>
          <div class="muted">Connected {new Date(connection.created_at).toLocaleDateString()}</div>
        </div>
        <span class={`badge ${badge.tone}`.trim()}>{badge.text}</span>
      </div>
      {status.message !== "" ? (
        <p class={status.action !== null || status.state === "unavailable" ? "fix" : "muted"} role={status.action !== null ? "note" : undefined}>
          {status.message}
          {status.missing_scopes !== undefined && status.missing_scopes.length > 0 ? <span class="muted"> ({status.missing_scopes.join(", ")})</span> : null}
        </p>
      ) : null}
      <div class="field field-inline connection-toggle">
        <input id={toggleId} type="checkbox" role="switch" checked={botOn} disabled={busy} onChange={(event) => onToggle(event.currentTarget.checked)} />
        <label for={toggleId}>Bot and alerts on this channel</label>
      </div>
      <div class="actions">
        {status.action === "reconnect" ? (
          <button type="button" class="button primary small" disabled={busy} onClick={onReconnect}>
            Reconnect {name}
          </button>
        ) : null}
        {status.action === "grant_scope" ? (
          <button type="button" class="button primary small" disabled={busy} onClick={onReconnect}>
            Grant the permission on {name}
          </button>
        ) : null}
        <button type="button" class="button secondary small" disabled={busy} aria-label={`Disconnect ${name}`} onClick={onDisconnect}>
          Disconnect…
        </button>
      </div>
    </div>
  );
}

/** Connections: connect Twitch, YouTube, Kick and TikTok, switch the bot per channel, see what to do, disconnect. */
export default function Connections() {
  const client = useClient();
  const { boot } = useApp();
  const confirm = useConfirm();
  const toast = useToast();
  const loaded = useLoad(() => client.account.connections(), []);
  const [busy, setBusy] = useState<string | null>(null);
  const [problems, setProblems] = useState<Partial<Record<PlatformId, string>>>({});

  /** Starts the link flow: the identity host's link page, the platform, then back to this page. */
  const connect = async (platform: PlatformId, name: string) => {
    setBusy(platform);
    setProblems((p) => ({ ...p, [platform]: undefined }));
    try {
      const returnTo = new URL(`${boot.base_path.replace(/\/+$/, "")}/connections`, window.location.href).href;
      const started = await client.account.linkConnection(platform, { return_to: returnTo });
      window.location.assign(started.url);
    } catch (error) {
      setProblems((p) => ({ ...p, [platform]: linkProblem(name, error) }));
      setBusy(null);
    }
  };

  const toggle = async (connection: Connection, on: boolean) => {
    const shown = (value: boolean) => loaded.set((list) => (list ?? []).map((c) => (c.id === connection.id ? { ...c, bot_enabled: value } : c)));
    // The switch shows the choice at once; a refusal puts it back.
    shown(on);
    setBusy(connection.platform);
    try {
      const updated = await client.account.updateConnection(connection.id, { bot_enabled: on });
      loaded.set((list) => (list ?? []).map((c) => (c.id === connection.id ? updated : c)));
      toast("success", on ? `The bot now serves your ${connection.platform_name} channel.` : `The bot no longer serves your ${connection.platform_name} channel.`);
    } catch (error) {
      shown(!on);
      toast("error", messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  const disconnect = async (connection: Connection) => {
    const ok = await confirm({
      title: `Disconnect ${connection.platform_name}?`,
      message: `The bot and alerts stop serving ${connection.display_name} at once, and Ovation forgets its ${connection.platform_name} access. You can connect it again later.`,
      confirmLabel: "Disconnect",
      danger: true,
    });
    if (!ok) return;
    setBusy(connection.platform);
    try {
      await client.account.unlinkConnection(connection.id);
      loaded.set((list) => (list ?? []).filter((c) => c.id !== connection.id));
      toast("success", `Disconnected ${connection.platform_name}.`);
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Connect your channels so the bot answers in their chat and their events play as alerts. You sign in on each platform; nothing else to set up.</p>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
          Refresh
        </button>
      </div>
      <LoadState loaded={loaded} what="Connections">
        {(connections) => (
          <ul class="connection-list" aria-label="Platforms">
            {PLATFORMS.map(({ id, name }) => {
              const linked = connections.filter((c) => c.platform === id);
              const problem = problems[id];
              return (
                <li key={id} class="card connection-card stack" data-platform={id} data-state={linked[0]?.status.state ?? "none"}>
                  <div class="source-head">
                    <h2 class="card-title">{name}</h2>
                    {linked.length === 0 ? <span class="badge">Not connected</span> : null}
                  </div>
                  {linked.map((connection) => (
                    <ConnectedCard
                      key={connection.id}
                      connection={connection}
                      name={name}
                      busy={busy !== null}
                      onReconnect={() => void connect(id, name)}
                      onToggle={(on) => void toggle(connection, on)}
                      onDisconnect={() => void disconnect(connection)}
                    />
                  ))}
                  {linked.length === 0 ? (
                    <>
                      <p class="muted">Not connected: the bot and alerts do not serve a {name} channel of yours.</p>
                      <div class="actions">
                        <button type="button" class="button primary small" disabled={busy !== null} onClick={() => void connect(id, name)}>
                          {busy === id ? `Opening ${name}…` : `Connect ${name}`}
                        </button>
                      </div>
                    </>
                  ) : null}
                  {problem !== undefined ? (
                    <p class="field-error" role="alert">
                      {problem}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </LoadState>
    </div>
  );
}
