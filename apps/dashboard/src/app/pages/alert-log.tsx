import type { BrowserSource } from "@ovation/client";
import type { AlertLogEntryView, AlertLogUpdate, QueueStateView } from "@ovation/core/contracts";
import { useCallback, useRef, useState } from "preact/hooks";
import { messageOf } from "../ui/errors.js";
import { useConfirm } from "../ui/confirm.js";
import { useToast } from "../ui/toast.js";
import { alertAmount, alertTime, alertWho } from "./alert-log/describe.js";
import { useClient } from "./kit/client.js";
import { useAlertLogUpdates } from "./kit/live.js";
import { LoadState } from "./kit/load-state.js";
import { useLoad } from "./kit/use-load.js";
import { TableHead } from "./kit/table-head.js";

type QueueAction = "skip" | "pause" | "resume" | "clear";

interface LogView {
  entries: AlertLogEntryView[];
  state: QueueStateView;
  sources: BrowserSource[];
}

/** Applies one live update to what the page shows. */
function applyUpdate(view: LogView, update: AlertLogUpdate): LogView {
  switch (update.kind) {
    case "logged": {
      const id = update.entry.notification.notification.id;
      if (view.entries.some((e) => e.notification.notification.id === id)) return view;
      return { ...view, entries: [update.entry, ...view.entries].slice(0, 100) };
    }
    case "acknowledged":
      return {
        ...view,
        entries: view.entries.map((e) =>
          e.notification.notification.id === update.notification_id && !e.acknowledged_by.includes(update.browser_source_id) ? { ...e, acknowledged_by: [...e.acknowledged_by, update.browser_source_id] } : e,
        ),
      };
    case "queue": {
      let entries = view.entries;
      if (update.action === "clear" && update.browser_source_id === null) entries = entries.map((e) => ({ ...e, cleared: true }));
      if (update.action === "clear" && update.browser_source_id !== null) {
        const id = update.browser_source_id;
        entries = entries.map((e) => (e.acknowledged_by.includes(id) ? e : { ...e, acknowledged_by: [...e.acknowledged_by, id] }));
      }
      return { ...view, entries, state: update.state };
    }
    case "replayed":
      return view;
  }
}

function sourceName(source: BrowserSource): string {
  return `${source.browser_source_type === "effect-alerts" ? "Effect alerts" : "Alerts"}${source.identifier !== null ? ` "${source.identifier}"` : ""} #${source.id}`;
}

function QueueControls({ view, onAction }: { view: LogView; onAction: (action: QueueAction, source: BrowserSource | null) => Promise<void> }) {
  const rows: Array<{ source: BrowserSource | null; paused: boolean }> = [
    { source: null, paused: view.state.paused },
    ...view.sources.map((source) => ({ source, paused: view.state.paused || view.state.paused_sources.includes(source.id) })),
  ];
  return (
    <section class="card stack" aria-labelledby="queue-heading">
      <h2 id="queue-heading">Queue</h2>
      <ul class="queue-rows">
        {rows.map(({ source, paused }) => {
          const name = source === null ? "All browser sources" : sourceName(source);
          const ownPause = source === null ? view.state.paused : view.state.paused_sources.includes(source.id);
          return (
            <li key={source?.id ?? "all"} class="queue-row" data-source={source?.id ?? "all"} data-paused={paused ? "true" : "false"}>
              <span class="queue-name">
                <strong>{name}</strong> <span class={`badge${paused ? "" : " active"}`}>{paused ? "paused" : "running"}</span>
              </span>
              <span class="toolbar">
                {ownPause ? (
                  <button type="button" class="button secondary small" aria-label={`Resume ${name}`} onClick={() => void onAction("resume", source)}>
                    Resume
                  </button>
                ) : (
                  <button type="button" class="button secondary small" aria-label={`Pause ${name}`} disabled={source !== null && view.state.paused} onClick={() => void onAction("pause", source)}>
                    Pause
                  </button>
                )}
                <button type="button" class="button secondary small" aria-label={`Skip the alert on screen (${name})`} onClick={() => void onAction("skip", source)}>
                  Skip
                </button>
                <button type="button" class="button secondary small" aria-label={`Clear the queue of ${name}`} onClick={() => void onAction("clear", source)}>
                  Clear
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The alert log and queue: recent alerts with replay, pause/resume/skip/clear per source, updated live. */
export default function AlertLog() {
  const client = useClient();
  const toast = useToast();
  const confirm = useConfirm();
  const loaded = useLoad<LogView>(async () => {
    const [log, sources] = await Promise.all([client.alerts.log({ limit: 100 }), client.browserSources.list()]);
    return {
      entries: log.data,
      state: { paused: log.paused, paused_sources: log.paused_sources },
      sources: sources.data.filter((s) => s.browser_source_type === "alerts" || s.browser_source_type === "effect-alerts"),
    };
  }, []);
  /** Queue updates heard live so far: an action's answer that arrives after a newer live update is older than it. */
  const queueUpdates = useRef(0);
  const onUpdate = useCallback(
    (update: AlertLogUpdate) => {
      if (update.kind === "queue") queueUpdates.current += 1;
      loaded.set((view) => (view === null ? view : applyUpdate(view, update)));
    },
    [loaded.set],
  );
  const live = useAlertLogUpdates(onUpdate, () => void loaded.reload());
  const [replaying, setReplaying] = useState<string | null>(null);

  const act = async (action: QueueAction, source: BrowserSource | null) => {
    const name = source === null ? "every browser source" : sourceName(source);
    if (action === "clear" && !(await confirm({ title: "Clear the queue?", message: `Alerts waiting on ${name} are dropped and not shown again when a source reconnects.`, confirmLabel: "Clear", danger: true }))) return;
    try {
      const heard = queueUpdates.current;
      const answer = await client.alerts.queue(action, source === null ? {} : { browserSourceId: source.id });
      // The queue's state in the answer is applied only when no queue update was heard live
      // meanwhile: the live updates carry this action's state too, and one heard before this answer
      // arrived may be newer (a resume made elsewhere), which the answer must not undo.
      if (queueUpdates.current === heard) {
        loaded.set((view) => (view === null ? view : applyUpdate(view, { kind: "queue", action, browser_source_id: source?.id ?? null, state: { paused: answer.paused, paused_sources: answer.paused_sources } })));
      }
      toast("success", { skip: `Skipped the alert on ${name}.`, pause: `Paused ${name}.`, resume: `Resumed ${name}.`, clear: `Cleared ${answer.cleared ?? 0} alert(s) on ${name}.` }[action]);
    } catch (error) {
      toast("error", messageOf(error));
    }
  };

  const replay = async (entry: AlertLogEntryView) => {
    const id = entry.notification.notification.id;
    setReplaying(id);
    try {
      await client.alerts.replay(id);
      toast("success", `Showing the ${entry.notification.subscription.type} alert of ${alertWho(entry.notification)} again.`);
    } catch (error) {
      toast("error", messageOf(error));
    } finally {
      setReplaying(null);
    }
  };

  return (
    <div class="stack">
      <div class="toolbar">
        <p class="lead">Recent alerts and the queue of your browser sources.</p>
        <span class="spacer" />
        <span class={`live-status live-${live}`} role="status" data-live={live}>
          {live === "live" ? "● Live" : live === "connecting" ? "Connecting…" : "Not live"}
        </span>
        <button type="button" class="button secondary small" onClick={() => void loaded.reload()}>
          Refresh
        </button>
      </div>
      <LoadState loaded={loaded} what="The alert log">
        {(view) => (
          <>
            <QueueControls view={view} onAction={act} />
            <section class="card stack" aria-labelledby="log-heading">
              <h2 id="log-heading">Recent alerts</h2>
              {view.entries.length === 0 ? (
                <p class="muted">No alerts yet. Send a test alert from an alert set, or wait for your first follower.</p>
              ) : (
                <div class="table-wrap">
                  <table class="data data-table" aria-describedby="log-heading">
                    <TableHead columns={["When", "Alert", "Who", "Shown on"]} />
                    <tbody>
                      {view.entries.map((entry) => {
                        const n = entry.notification;
                        const amount = alertAmount(n);
                        return (
                          <tr key={n.notification.id} data-notification={n.notification.id}>
                            <td data-label="When">{alertTime(n)}</td>
                            <td data-label="Alert">
                              <strong>{n.subscription.type}</strong> <span class="muted">{n.subscription.condition.platform}</span>
                              {amount !== null ? <span class="cell-sub">{amount}</span> : null}
                              {entry.test ? <span class="badge">test</span> : null}
                              {n.ovation?.simulated === true ? <span class="badge">simulated</span> : null}
                              {entry.cleared ? <span class="badge">cleared</span> : null}
                            </td>
                            <th scope="row" data-label="Who">
                              {alertWho(n)}
                            </th>
                            <td data-label="Shown on" class="shown-on">
                              {entry.acknowledged_by.length === 0 ? <span class="muted">not yet</span> : entry.acknowledged_by.map((id) => `#${id}`).join(", ")}
                            </td>
                            <td class="row-actions">
                              <button type="button" class="button secondary small" disabled={replaying === n.notification.id} aria-label={`Replay the ${n.subscription.type} alert of ${alertWho(n)}`} onClick={() => void replay(entry)}>
                                Replay
                              </button>
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </>
        )}
      </LoadState>
    </div>
  );
}
