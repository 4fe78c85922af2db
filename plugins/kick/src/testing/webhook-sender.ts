import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import type { KeyObject } from "node:crypto";
import { signedText } from "../webhook/signature.js";
import { webhookEvent, webhookFixtures } from "./fixtures.js";
import type { WebhookFixture } from "./fixtures.js";

/** One delivery as sent: headers, raw body, and the answer. */
export interface SentWebhook {
  headers: Record<string, string>;
  body: string;
  status: number;
  answer: string;
}

/**
 * Sends Kick webhooks the way Kick does: POST with the Kick-Event-* headers, signed RSA SHA-256
 * (PKCS#1 v1.5) over `messageId.timestamp.body` with a test key pair generated per sender, whose
 * public key (`publicKeyPem`) the plugin under test is configured to trust. `attack` replays the
 * attack fixtures (forged signature, stale timestamp, replay, tampered body, missing header).
 */
export class KickWebhookSender {
  readonly publicKeyPem: string;
  readonly #privateKey: KeyObject;
  readonly #untrusted: KeyObject;
  #seq = 0;

  /** @param url where deliveries go (the server's webhook route; may be set later). */
  constructor(public url = "") {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.#privateKey = pair.privateKey;
    this.publicKeyPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    this.#untrusted = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  }

  /** Headers and body of a signed delivery of `fixture` (not sent). */
  build(fixture: WebhookFixture, options: { messageId?: string; at?: Date; key?: KeyObject } = {}): { headers: Record<string, string>; body: string } {
    const body = JSON.stringify(fixture.body);
    const messageId = options.messageId ?? `01KICK${String(++this.#seq).padStart(6, "0")}${randomUUID().replace(/-/g, "").slice(0, 14).toUpperCase()}`;
    const timestamp = (options.at ?? new Date()).toISOString();
    const signature = sign("sha256", signedText(messageId, timestamp, body), options.key ?? this.#privateKey).toString("base64");
    return {
      body,
      headers: {
        "Content-Type": "application/json",
        "Kick-Event-Message-Id": messageId,
        "Kick-Event-Subscription-Id": "01KSUBSCRIPTION00000000000",
        "Kick-Event-Signature": signature,
        "Kick-Event-Message-Timestamp": timestamp,
        "Kick-Event-Type": fixture.type,
        "Kick-Event-Version": fixture.version,
      },
    };
  }

  /** POSTs prepared headers and body to the webhook URL. */
  async post(delivery: { headers: Record<string, string>; body: string }): Promise<SentWebhook> {
    const response = await fetch(this.url, { method: "POST", headers: delivery.headers, body: delivery.body, signal: AbortSignal.timeout(10_000) });
    return { ...delivery, status: response.status, answer: await response.text() };
  }

  /** Signs and sends the named fixture (or a fixture object). */
  send(fixture: string | WebhookFixture, options: { messageId?: string; at?: Date } = {}): Promise<SentWebhook> {
    return this.post(this.build(typeof fixture === "string" ? webhookEvent(fixture) : fixture, options));
  }

  /** Sends the named attack fixture; returns every delivery (a replay sends more than one). */
  async attack(name: string): Promise<SentWebhook[]> {
    const a = webhookFixtures.attacks[name];
    if (!a) throw new Error(`no Kick attack fixture named ${name}`);
    const fixture = webhookEvent(a.event);
    const at = new Date(Date.now() - (a.ageSeconds ?? 0) * 1000);
    const delivery = this.build(fixture, { at, ...(a.signWith ? { key: this.#untrusted } : {}) });
    if (a.replace) delivery.body = delivery.body.replace(a.replace[0], a.replace[1]);
    if (a.dropHeader) delete delivery.headers[a.dropHeader];
    const sent: SentWebhook[] = [];
    for (let i = 0; i < (a.repeat ?? 1); i++) sent.push(await this.post(delivery));
    return sent;
  }
}
