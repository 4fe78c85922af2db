import type { PlatformLookups, PlatformPlugin, PluginContext } from "@ovation/core";
import { CONSOLE_NAMESPACE } from "@ovation/plugin-console";
import type { ConsoleLineResult, ConsoleModeration, ConsoleOutput } from "@ovation/plugin-console";
import { io as connectClient } from "socket.io-client";
import type { Socket } from "socket.io-client";
import { waitFor } from "../../__tests__/socket-helpers.js";

/** A console (`ovation chat`) on the real `/console` namespace that records what the bot says and does. */
export class TestConsole {
  readonly said: ConsoleOutput[] = [];
  readonly moderation: ConsoleModeration[] = [];

  private constructor(readonly socket: Socket) {
    socket.on("say", (output: ConsoleOutput) => this.said.push(output));
    socket.on("moderation", (action: ConsoleModeration) => this.moderation.push(action));
  }

  /** Opens a console as the token's owner, or as viewer `as` wearing `badges`. */
  static async open(url: string, auth: { token: string; as?: string; badges?: string[] }): Promise<TestConsole> {
    const socket = connectClient(`${url}${CONSOLE_NAMESPACE}`, { auth, transports: ["websocket"], reconnection: false, forceNew: true, timeout: 10_000 });
    await new Promise<void>((resolve, reject) => {
      socket.once("ready", () => resolve());
      socket.once("connect_error", reject);
    });
    return new TestConsole(socket);
  }

  /** Types a line; resolves once the server accepted it. */
  async say(text: string): Promise<ConsoleLineResult> {
    return (await this.socket.timeout(10_000).emitWithAck("line", text)) as ConsoleLineResult;
  }

  /** Waits for a bot message containing `text`. */
  async heard(text: string, timeoutMs = 10_000): Promise<ConsoleOutput> {
    await waitFor(() => this.said.some((o) => o.text.includes(text)), timeoutMs, `the bot saying "${text}" (said: ${JSON.stringify(this.said.map((o) => o.text))})`);
    return this.said.find((o) => o.text.includes(text)) as ConsoleOutput;
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * The consoles a test file opens, each closed by {@link closeAll} at its end: `open()` as the
 * token's owner or as a viewer (`as`, `badges`), with the server and token of `target()`.
 */
export class TestConsoles {
  readonly #opened: TestConsole[] = [];

  constructor(private readonly target: () => { url: string; token: string }) {}

  async open(auth: { as?: string; badges?: string[] } = {}): Promise<TestConsole> {
    const { url, token } = this.target();
    const console = await TestConsole.open(url, { token, ...auth });
    this.#opened.push(console);
    return console;
  }

  closeAll(): void {
    for (const console of this.#opened.splice(0)) console.close();
  }
}

/**
 * A Kick-like platform plugin of the streamer `owner()` that can only send (no moderation part),
 * recording what it sent; `lookups` answer the template functions `user()` and `channel()`.
 */
export class SendOnlyPlugin implements PlatformPlugin {
  readonly metadata: PlatformPlugin["metadata"];
  readonly capabilities = { send: ["say" as const], moderation: { deleteMessage: false, timeout: false } };
  readonly lookups?: PlatformLookups;
  context: PluginContext | null = null;
  readonly sent: string[] = [];

  constructor(
    private readonly owner: () => number,
    options: { name: string; lookups?: PlatformLookups },
  ) {
    this.metadata = { name: options.name, platform: "kick", version: "1.0.0", core: "^0.1.0" };
    if (options.lookups !== undefined) this.lookups = options.lookups;
  }

  channels() {
    return [{ id: String(this.owner()), platform_id: "kick-room", username: "streamer", avatar_url: "" }];
  }

  async connect(context: PluginContext) {
    this.context = context;
  }

  async disconnect() {}

  async send(message: { text: string }) {
    this.sent.push(message.text);
  }
}
