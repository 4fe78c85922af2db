import { connect } from "@ovation/client/socket";
import type { AlertLogUpdate } from "@ovation/core/contracts";
import { useEffect, useRef, useState } from "preact/hooks";
import { useApp } from "../../app-context.js";
import { useChannel } from "../../channel.js";

/** Whether the page receives live updates now. */
export type LiveStatus = "connecting" | "live" | "offline";

/**
 * Live `alert-log` updates of the signed-in user through `@ovation/client/socket`: the socket
 * authenticates with the access token, joins the user's own room (`<uuid>.ovation.<id>`, which needs
 * `alerts:manage`) on every connection, and hands every update to `onUpdate`. After a reconnection
 * that did not recover the missed events, `onReconnect` refetches the page's data. On a channel the
 * user manages there are no live updates ("offline"): the room is the streamer's, which only their
 * own sockets join, and the user's own room would mix the user's alerts into the streamer's log.
 */
export function useAlertLogUpdates(onUpdate: (update: AlertLogUpdate) => void, onReconnect: () => void): LiveStatus {
  const { session, boot, api } = useApp();
  const managed = useChannel().channel !== null;
  const [status, setStatus] = useState<LiveStatus>(managed ? "offline" : "connecting");
  const handlers = useRef({ onUpdate, onReconnect });
  handlers.current = { onUpdate, onReconnect };

  useEffect(() => {
    if (managed) {
      setStatus("offline");
      return;
    }
    setStatus("connecting");
    let closed = false;
    let connectedBefore = false;
    let joined = false;
    const socket = connect({ url: boot.api_base, token: () => session.accessToken(), serverId: null });
    const offUpdate = socket.on("alert-log", (update) => handlers.current.onUpdate(update));
    const offStatus = socket.onStatus((state) => {
      if (state.state !== "connected") {
        setStatus(state.state === "connecting" ? "connecting" : "offline");
        return;
      }
      if (connectedBefore && !state.recovered) handlers.current.onReconnect();
      connectedBefore = true;
      // The helper joins the room again on every connection.
      if (joined) setStatus("live");
    });
    void api.users.account().then(
      (account) => {
        if (closed) return;
        socket.join(`${account.uuid}.ovation.${account.id}`).then(
          () => {
            joined = true;
            setStatus("live");
          },
          () => setStatus("offline"),
        );
      },
      () => setStatus("offline"),
    );
    return () => {
      closed = true;
      offUpdate();
      offStatus();
      socket.close();
    };
  }, [session, boot.api_base, api, managed]);
  return status;
}
