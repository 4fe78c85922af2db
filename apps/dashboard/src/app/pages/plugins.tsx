import { Link } from "wouter-preact";
import { useClient } from "./kit/client.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";

const STATUS_TEXT: Readonly<Record<string, string>> = {
  connected: "Connected",
  connecting: "Connecting",
  pending: "Starting",
  idle: "Idle",
  degraded: "Partly working",
  disconnected: "Disconnected",
  failed: "Failed",
};

const statusClass = (status: string) => (status === "connected" ? "badge active" : status === "failed" || status === "disconnected" ? "badge bad" : "badge");

/** Plugins (for the operator): each platform plugin's status and what to fix; streamers are sent to Connections. */
export default function Plugins() {
  const client = useClient();
  const loaded = useLoad(() => client.plugins.list(), []);
  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">For the server's operator: the platform plugins this server runs (Twitch, YouTube, Kick…), how each one is doing, and what to fix in the server's settings.</p>
        <span class="spacer" />
        <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
          Refresh
        </button>
      </div>
      <p class="card notice-card">
        Streaming on one of these platforms? Connect your own channel on the <Link href="/connections">Connections</Link> page: you sign in on the platform there, and the bot and alerts serve your channel. Nothing here needs changing for that.
      </p>
      <LoadState loaded={loaded} what="Plugins">
        {(listing) => (
          <>
            {listing.data.length === 0 ? <p class="card muted">No platform plugins are loaded (OVATION_PLUGINS=none).</p> : null}
            <ul class="plugin-list" aria-label="Platform plugins">
              {listing.data.map((plugin) => (
                <li key={plugin.id} class="card plugin-card stack" data-plugin={plugin.id} data-status={plugin.status}>
                  <div class="source-head">
                    <h2 class="card-title">
                      {plugin.name ?? plugin.id}
                      {plugin.version !== null ? <span class="muted"> v{plugin.version}</span> : null}
                    </h2>
                    <span class={statusClass(plugin.status)}>{STATUS_TEXT[plugin.status] ?? plugin.status}</span>
                  </div>
                  <dl class="facts">
                    <dt>Platform</dt>
                    <dd>{plugin.platform ?? "—"}</dd>
                    <dt>Source</dt>
                    <dd>{plugin.origin}</dd>
                    {plugin.detail !== null ? (
                      <>
                        <dt>It says</dt>
                        <dd>{plugin.detail}</dd>
                      </>
                    ) : null}
                  </dl>
                  {plugin.fix !== null ? (
                    <div class="fix" role="note">
                      <strong>What to fix: </strong>
                      {plugin.fix}
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
            {listing.unserved.length > 0 ? (
              <section class="card stack" aria-labelledby="unserved-heading">
                <h2 id="unserved-heading">Alerts for platforms nobody serves</h2>
                <ul>
                  {listing.unserved.map((u) => (
                    <li key={u.alert_set_id} class="fix">
                      {u.fix}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}
      </LoadState>
    </div>
  );
}
