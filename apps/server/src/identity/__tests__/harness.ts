import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import type { FastifyInstance } from "fastify";
import { pino } from "pino";
import { SMTPServer } from "smtp-server";
import { PersonalAccessTokenVerifier } from "../../auth/personal-access-token-verifier.js";
import { createRepositories } from "../../store/repositories.js";
import type { Repositories } from "../../store/repositories.js";
import { Store } from "../../store/store.js";
import { freePort } from "../../__tests__/helpers.js";
import { hashPassword } from "../accounts/passwords.js";
import type { Clock } from "../clock.js";
import type { CreatedClient } from "../clients.js";
import { loadIdentityEnv } from "../identity-env.js";
import type { IdentityLifetimes } from "../identity-env.js";
import { createIdentityModule } from "../module.js";
import type { IdentityModule, IdentityModuleOptions } from "../module.js";
import type { PlatformOAuthSettings } from "../platforms/settings.js";

/** One mail as received by the loopback SMTP server. */
export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  /** The decoded text body. */
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function parseMail(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n") >= 0 ? raw.indexOf("\r\n\r\n") : raw.indexOf("\n\n");
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text = encoding === "quoted-printable" ? decodeQuotedPrintable(body) : encoding === "base64" ? Buffer.from(body, "base64").toString("utf8") : body;
  return { to, raw, subject: header("Subject"), text };
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
export async function startSmtp(): Promise<{ port: number; mails: ReceivedMail[]; waitFor(to: string, count?: number): Promise<ReceivedMail>; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push(parseMail(Buffer.concat(chunks).toString("utf8"), session.envelope.rcptTo.map((r) => r.address)));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    port,
    mails,
    async waitFor(to, count = 1) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const mine = mails.filter((m) => m.to.includes(to));
        const found = mine[count - 1];
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail #${count} for ${to} within 30 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A controllable clock. */
export function fakeClock(start = Date.parse("2026-11-21T05:00:00.000Z")): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  const clock = (() => now) as Clock & { advance(ms: number): void; set(ms: number): void };
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (ms) => {
    now = ms;
  };
  return clock;
}

/** A running identity module on loopback (its own fastify app, the host's store and repositories). */
export interface Harness {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  repos: Repositories;
  identity: IdentityModule;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  close(): Promise<void>;
  /** A local account with a password. */
  createUser(input: { name: string; email: string | null; password?: string }): Promise<{ id: number; email: string | null; password: string }>;
  client(input: { public?: boolean; redirectUris?: string[] }): Promise<CreatedClient>;
}

/** The host store of `dataDir`, the identity module on it and a fastify app serving it on 127.0.0.1:`port` (0: any). */
export async function serveIdentity(
  dataDir: string,
  port: number,
  options: Partial<Omit<IdentityModuleOptions, "dataDir" | "users" | "connections" | "tokens">> & { databaseUrl?: string },
): Promise<{ app: FastifyInstance; repos: Repositories; identity: IdentityModule; port: number; stop(): Promise<void> }> {
  const { databaseUrl, ...moduleOptions } = options;
  const store = await Store.openConfigured({ dataDir, databaseUrl: databaseUrl ?? null });
  const repos = createRepositories(store);
  const identity = await createIdentityModule({
    dataDir,
    users: repos.users,
    connections: repos.connections,
    tokens: repos.tokens,
    foreignTokens: new PersonalAccessTokenVerifier(repos.tokens, repos.users),
    logger: pino({ level: "silent" }),
    env: loadIdentityEnv({}),
    oidcStorage: store.oidcStorage ?? undefined,
    sharedStore: store.shared ? store : undefined,
    ...moduleOptions,
  });
  const app = Fastify({ logger: false });
  await identity.plugin(app);
  await app.listen({ host: "127.0.0.1", port });
  const address = app.server.address();
  return {
    app,
    repos,
    identity,
    port: typeof address === "object" && address !== null ? address.port : 0,
    async stop() {
      await app.close();
      identity.close();
      await store.close();
    },
  };
}

/** Starts the identity module on 127.0.0.1:0 with a loopback SMTP server. */
export async function startHarness(
  options: {
    clock?: Clock;
    lifetimes?: Partial<IdentityLifetimes>;
    platforms?: PlatformOAuthSettings[];
    hostname?: "localhost";
    idUrl?: string;
    databaseUrl?: string;
    /** Shared counters (Redis), as a node with OVATION_REDIS_URL has them. */
    shared?: Pick<IdentityModuleOptions, "timeLogs" | "eatAttempts">;
  } = {},
): Promise<Harness> {
  // WebAuthn needs a domain, not an IP: serve on 127.0.0.1 but name the host localhost.
  const fixedPort = options.hostname === "localhost" ? await freePort() : 0;
  const dir = await mkdtemp(join(tmpdir(), "ovation-identity-"));
  const smtp = await startSmtp();
  const { app, repos, identity, port, stop } = await serveIdentity(dir, fixedPort, {
    smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.lifetimes ? { lifetimes: options.lifetimes } : {}),
    ...(options.platforms ? { platforms: options.platforms } : {}),
    ...(fixedPort !== 0 ? { idUrl: `http://localhost:${fixedPort}` } : {}),
    ...(options.idUrl !== undefined ? { idUrl: options.idUrl } : {}),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
    ...options.shared,
  });
  return {
    app,
    base: `http://${options.hostname ?? "127.0.0.1"}:${port}`,
    dataDir: dir,
    repos,
    identity,
    smtp,
    async close() {
      await stop();
      await smtp.close();
      await rm(dir, { recursive: true, force: true });
    },
    async createUser(input) {
      const password = input.password ?? "correct horse battery staple";
      const user = repos.users.create({ name: input.name, email: input.email, email_verified_at: input.email ? new Date().toISOString() : null, password_hash: await hashPassword(password) });
      return { id: user.id, email: user.email, password };
    },
    client: async (input) => identity.clients.create({ name: "Test app", redirect_uris: input.redirectUris ?? ["http://127.0.0.1:9/callback"], public: input.public ?? false }),
  };
}
