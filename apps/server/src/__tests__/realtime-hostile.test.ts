import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OvationApp } from "../app.js";
import { ERROR_CODES } from "../errors.js";
import { seedUser, tempDataDir, testApp } from "./helpers.js";
import { RawSocketIo, loadHostilePayloads } from "./raw-socket-io.js";
import type { RawFrame } from "./raw-socket-io.js";
import { connect, join, listen } from "./socket-helpers.js";

/**
 * Issue 10, critical: one unauthenticated socket message (`room` with {toString: 1}) killed the
 * process. Every inbound event of every namespace gets every hostile value of
 * fixtures/realtime/hostile-payloads.json, with and without credentials and with and without an ack
 * id; the server must answer only registered `error` events (or drop the connection for payloads
 * past the 16 KiB buffer) and stay healthy.
 */
const corpus = loadHostilePayloads();
const MAX_BUFFER = 16_384;
const data = tempDataDir();
let app: OvationApp;
let url: string;
let alice: { userId: number; uuid: string; token: string };
let sourceToken: string;

beforeAll(async () => {
  app = await testApp(data.dir);
  alice = seedUser(app, "Alice", ["alerts:manage", "chatbot:manage:commands", "user:read"]);
  sourceToken = app.ovation.repos.browserSources.findOrCreate(alice.userId, "alerts", null).record.access_token;
  url = await listen(app);
});
afterAll(async () => {
  await app.close();
  data.remove();
});

/** The event name and first argument of an EVENT frame (`42[...]`, `42/console,[...]`), or null. */
function eventOf(text: string): { name: string; payload: Record<string, unknown> } | null {
  const match = /^42(?:\/[a-z]+,)?(\[.*)$/s.exec(text);
  if (!match?.[1]) return null;
  const [name, payload] = JSON.parse(match[1]) as [string, Record<string, unknown>];
  return { name, payload };
}

/** Reads frames until the probe's answer; returns what came before it (or that the server closed). */
async function untilProbe(client: RawSocketIo, isProbe: (frame: string) => boolean): Promise<{ frames: string[]; closed: boolean }> {
  const frames: string[] = [];
  for (;;) {
    const frame: RawFrame = await client.next();
    if ("closed" in frame) return { frames, closed: true };
    if (isProbe(frame.text)) return { frames, closed: false };
    frames.push(frame.text);
  }
}

const registered = new Set(Object.keys(ERROR_CODES));

interface Namespace {
  namespace: "/" | "/console";
  events: string[];
  auth: Record<string, unknown> | null;
  /** Sends a harmless event whose answer marks the end of what the hostile one caused. */
  probe(client: RawSocketIo): void;
  isProbe(frame: string): boolean;
}

const mainProbe = {
  probe: (client: RawSocketIo) => client.sendEvent("room", JSON.stringify("probe")),
  isProbe: (frame: string) => eventOf(frame)?.payload["room"] === "probe",
};
const consoleProbe = {
  probe: (client: RawSocketIo) => client.sendEvent("line", JSON.stringify("   "), 999),
  isProbe: (frame: string) => frame.startsWith("43/console,999["),
};

async function hammer(target: Namespace): Promise<number> {
  let open = await RawSocketIo.open(url, target.namespace, target.auth);
  expect(open.answer.startsWith(target.namespace === "/" ? "40{" : "40/console,{")).toBe(true);
  let sent = 0;
  for (const event of target.events) {
    for (const payload of corpus.payloads) {
      for (const ackId of [undefined, 7]) {
        const what = `${target.namespace} ${event} ${payload.name} ack=${String(ackId)} auth=${target.auth === null ? "none" : Object.keys(target.auth).join("+")}`;
        open.client.sendEvent(event, payload.argsJson, ackId);
        target.probe(open.client);
        sent++;
        const { frames, closed } = await untilProbe(open.client, target.isProbe);
        for (const frame of frames) {
          const parsed = eventOf(frame);
          if (parsed === null) {
            // Only the console answers acks (its line result); nothing else may come back.
            expect(frame, what).toMatch(/^43\/console,7\[\{"accepted":/);
            continue;
          }
          if (parsed.name === "ready" && target.namespace === "/console") continue; // sent once connected
          expect(parsed.name, what).toBe("error");
          expect(registered.has(String(parsed.payload["code"])), `${what}: ${String(parsed.payload["code"])}`).toBe(true);
          expect(parsed.payload["code"], what).not.toBe("OVATION_ERR_REALTIME_HANDLER_FAILED");
        }
        const codes = frames.map((f) => eventOf(f)?.payload["code"]);
        if (closed) {
          expect(payload.argsJson.length, `${what}: closed for a payload within the buffer`).toBeGreaterThan(MAX_BUFFER - 64);
          open = await RawSocketIo.open(url, target.namespace, target.auth);
        } else if (!["room", "ack", "line"].includes(event)) {
          expect(codes, what).toContain("OVATION_ERR_REALTIME_EVENT_UNKNOWN");
        }
      }
    }
  }
  open.client.close();
  return sent;
}

describe("hostile socket events", () => {
  test("every event of the main namespace, anonymous, with a bearer token and with a browser-source token", async () => {
    let sent = 0;
    for (const auth of [null, { token: alice.token }, { browserSourceToken: sourceToken }]) {
      sent += await hammer({ namespace: "/", events: corpus.events.main, auth, ...mainProbe });
    }
    expect(sent).toBe(3 * corpus.events.main.length * corpus.payloads.length * 2);
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  test("every event of the /console namespace with credentials; without them the namespace refuses and ignores the events", async () => {
    await hammer({ namespace: "/console", events: corpus.events.console, auth: { token: alice.token }, ...consoleProbe });
    const refused = await RawSocketIo.open(url, "/console", null);
    expect(refused.answer).toMatch(/^44\/console,/);
    for (const payload of corpus.payloads.filter((p) => p.argsJson.length < MAX_BUFFER)) refused.client.sendEvent("line", payload.argsJson, 1);
    refused.client.close();
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  test("hostile handshake credentials are refused at the handshake", async () => {
    for (const payload of corpus.payloads.filter((p) => p.argsJson.length < MAX_BUFFER && !p.argsJson.startsWith("[["))) {
      for (const field of ["token", "browserSourceToken", "as", "badges"]) {
        for (const namespace of ["/", "/console"] as const) {
          const value = (JSON.parse(`[${payload.argsJson}]`) as unknown[])[0] ?? null;
          const { client, answer } = await RawSocketIo.open(url, namespace, { [field]: value }).catch(() => ({ client: null, answer: "closed" }));
          client?.close();
          if (field === "as" || field === "badges") continue; // without a token: anonymous on "/", refused on /console
          if (namespace === "/") expect(answer, `${field}=${payload.name}`).toMatch(/^44\{|^closed$/);
        }
      }
    }
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  test("a throw inside a handler is caught, logged and answered; the socket and the server stay up", async () => {
    const socket = await connect(url, { token: alice.token });
    const users = app.ovation.repos.users;
    const original = users.get.bind(users);
    users.get = () => {
      throw new TypeError("injected failure");
    };
    try {
      const answer = await join(socket, `${alice.uuid}.ovation.${alice.userId}`);
      expect(answer).toMatchObject({ error: { code: "OVATION_ERR_REALTIME_HANDLER_FAILED" } });
    } finally {
      users.get = original;
    }
    expect(await join(socket, `${alice.uuid}.ovation.${alice.userId}`)).toEqual({ joined: `${alice.uuid}.ovation.${alice.userId}` });
    socket.close();
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });
});

describe("failed socket handshakes", () => {
  test("are throttled per address like failed HTTP authentications, yet a valid token still connects", async () => {
    const dir = tempDataDir();
    const limited = await testApp(dir.dir, { OVATION_RATE_LIMIT_PER_MINUTE: "100" });
    const bob = seedUser(limited, "Bob");
    const limitedUrl = await listen(limited);
    try {
      const codes: unknown[] = [];
      for (let i = 0; i < 22; i++) {
        const error = await connect(limitedUrl, { token: `ovpat_9_guess${i}` }).then(
          (s) => (s.close(), null),
          (e: Error & { data?: { code?: string } }) => e,
        );
        codes.push(error?.data?.code);
      }
      expect(codes.slice(0, 20).every((c) => c === "OVATION_ERR_REALTIME_UNAUTHENTICATED")).toBe(true);
      expect(codes.slice(20)).toEqual(["OVATION_ERR_REALTIME_TOO_MANY_FAILURES", "OVATION_ERR_REALTIME_TOO_MANY_FAILURES"]);
      // The HTTP API shares the count: the same address is throttled there too.
      const http = await limited.inject({ method: "GET", url: "/v1/users", headers: { authorization: "Bearer ovpat_9_other" }, remoteAddress: "127.0.0.1" });
      expect(http.statusCode).toBe(429);
      const valid = await connect(limitedUrl, { token: bob.token });
      valid.close();
    } finally {
      await limited.close();
      dir.remove();
    }
  });
});
