import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** Channel prefix of the relay: `ovation:relay:<node id>` carries what other nodes hand to that node. */
export const NODE_RELAY_PREFIX = "ovation:relay:";

/** One relayed message: for a topic (a plugin id), as JSON. */
interface RelayEnvelope {
  topic: string;
  payload: unknown;
}

/**
 * Hands messages to one named node through Redis pub/sub (a webhook that reached a node which does
 * not serve its channel goes to the node that does). Each node subscribes to its own channel on a
 * connection of its own (a subscribed connection runs no other command). Delivery is at most once:
 * a node that is not subscribed at that moment (dead, restarting) does not get it, and `send` says so.
 */
export class NodeRelay {
  readonly #publisher: Redis;
  readonly #subscriber: Redis;
  readonly #node: string;
  readonly #handlers = new Map<string, (payload: unknown) => void>();
  readonly #logger: Logger | undefined;

  private constructor(publisher: Redis, subscriber: Redis, node: string, logger?: Logger) {
    this.#publisher = publisher;
    this.#subscriber = subscriber;
    this.#node = node;
    this.#logger = logger;
  }

  /** Subscribes this node's channel on a duplicate of `redis` (reconnects and resubscribes on its own). */
  static async open(redis: Redis, node: string, logger?: Logger): Promise<NodeRelay> {
    const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, connectionName: "ovation:relay" });
    subscriber.on("error", () => undefined);
    const relay = new NodeRelay(redis, subscriber, node, logger);
    subscriber.on("message", (_channel: string, raw: string) => relay.#receive(raw));
    await subscriber.subscribe(NODE_RELAY_PREFIX + node);
    return relay;
  }

  /** Receives what other nodes send under `topic` (one handler per topic). */
  on(topic: string, handler: (payload: unknown) => void): void {
    this.#handlers.set(topic, handler);
  }

  /** Sends `payload` under `topic` to `node`: true when a subscriber of that node got it. */
  async send(node: string, topic: string, payload: unknown): Promise<boolean> {
    if (node === this.#node) {
      this.#deliver({ topic, payload });
      return true;
    }
    const envelope: RelayEnvelope = { topic, payload };
    return (await this.#publisher.publish(NODE_RELAY_PREFIX + node, JSON.stringify(envelope))) > 0;
  }

  #receive(raw: string): void {
    let envelope: RelayEnvelope;
    try {
      const parsed = JSON.parse(raw) as Partial<RelayEnvelope> | null;
      if (typeof parsed?.topic !== "string") throw new Error("no topic");
      envelope = { topic: parsed.topic, payload: parsed.payload };
    } catch (err) {
      this.#logger?.warn({ err: (err as Error).message }, "a relayed message was not understood; skipped");
      return;
    }
    this.#deliver(envelope);
  }

  #deliver(envelope: RelayEnvelope): void {
    const handler = this.#handlers.get(envelope.topic);
    if (!handler) {
      this.#logger?.warn({ topic: envelope.topic.slice(0, 64) }, "a relayed message for no receiver on this node; skipped");
      return;
    }
    try {
      handler(envelope.payload);
    } catch (err) {
      this.#logger?.warn({ err, topic: envelope.topic }, "a relayed message's receiver failed");
    }
  }

  /** Unsubscribes and closes the subscriber connection. */
  async close(): Promise<void> {
    try {
      await this.#subscriber.quit();
    } catch {
      this.#subscriber.disconnect();
    }
  }
}
