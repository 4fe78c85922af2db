import type { ManagedChannel, OvationClient } from "@ovation/client/http";
import {
  alertSetsApi,
  alertsApi,
  browserSourcesApi,
  channelHttp,
  commandsApi,
  countersApi,
  giveawaysApi,
  goalBarsApi,
  mediaApi,
  moderationApi,
  pointsApi,
  pollsApi,
  queueApi,
  quotesApi,
  shoutoutsApi,
  simulatorApi,
  systemCommandsApi,
  timersApi,
  ttsApi,
} from "@ovation/client/http";
import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useCallback, useContext, useEffect, useMemo, useState } from "preact/hooks";
import { useApp } from "./app-context.js";

/** Where the tab keeps the channel it acts on (per tab: two tabs may manage two channels). */
const STORAGE_KEY = "ovation.dashboard.channel";

/** The channel the pages act on: the signed-in user's own (null), or one they manage. */
export interface ChannelState {
  /** The managed channel chosen, or null for the user's own. */
  channel: ManagedChannel | null;
  /** Every channel the user manages (empty for most users). */
  channels: readonly ManagedChannel[];
  /** Picks a managed channel by its owner's id, or the user's own with null. */
  select: (userId: number | null) => void;
  /** Asks the server again (after a grant or a revocation). */
  reload: () => void;
}

const ChannelContext = createContext<ChannelState>({ channel: null, channels: [], select: () => undefined, reload: () => undefined });

function storedChoice(): number | null {
  try {
    const value = Number(sessionStorage.getItem(STORAGE_KEY));
    return Number.isSafeInteger(value) && value > 0 ? value : null;
  } catch {
    return null;
  }
}

function storeChoice(userId: number | null): void {
  try {
    if (userId === null) sessionStorage.removeItem(STORAGE_KEY);
    else sessionStorage.setItem(STORAGE_KEY, String(userId));
  } catch {
    // Storage refused (private mode): the choice lasts until the page reloads.
  }
}

/** Loads the channels the signed-in user manages and keeps the tab's choice. */
export function ChannelProvider({ children }: { children: ComponentChildren }) {
  const { api } = useApp();
  const [channels, setChannels] = useState<readonly ManagedChannel[]>([]);
  const [chosen, setChosen] = useState<number | null>(storedChoice);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let cancelled = false;
    api.managers.channels().then(
      (answer) => !cancelled && setChannels(answer.data),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [api, generation]);
  const select = useCallback((userId: number | null) => {
    storeChoice(userId);
    setChosen(userId);
  }, []);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // A choice no longer granted (revoked meanwhile) falls back to the user's own channel.
  const channel = channels.find((c) => c.user_id === chosen) ?? null;
  const value = useMemo(() => ({ channel, channels, select, reload }), [channel, channels, select, reload]);
  return <ChannelContext.Provider value={value}>{children}</ChannelContext.Provider>;
}

/** The channel the pages act on. */
export function useChannel(): ChannelState {
  return useContext(ChannelContext);
}

/**
 * `client` acting on the managed channel `userId`: the bot families (commands, counters, timers,
 * giveaways, moderation, system commands, points, quotes, queue, polls, shoutouts) on `/v1/bots/{userId}/...`, and the alert, alert-set,
 * media, browser-source, goal-bar, simulator and read-aloud families on the channel form of their routes;
 * every other family (account, tokens, managers...) still acts on the caller.
 */
export function clientForChannel(client: OvationClient, userId: number): OvationClient {
  const http = channelHttp(client.http, userId);
  return {
    ...client,
    commands: commandsApi(http),
    counters: countersApi(http),
    timers: timersApi(http),
    giveaways: giveawaysApi(http),
    moderation: moderationApi(http),
    points: pointsApi(http),
    quotes: quotesApi(http),
    queue: queueApi(http),
    polls: pollsApi(http),
    shoutouts: shoutoutsApi(http),
    systemCommands: systemCommandsApi(http),
    alerts: alertsApi(http),
    alertSets: alertSetsApi(http),
    media: mediaApi(http),
    browserSources: browserSourcesApi(http),
    goalBars: goalBarsApi(http),
    simulator: simulatorApi(http),
    tts: ttsApi(http),
  };
}
