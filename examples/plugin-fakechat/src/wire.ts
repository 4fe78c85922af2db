/**
 * The FakeChat wire format: one JSON object per line over TCP.
 *
 * Client -> server: `{"op":"join","channel":"<name>"}` once, then `{"op":"say","channel","text","reply_to"}`.
 * Server -> client: `{"op":"hello","channel"}` answering the join, then
 * `{"op":"message","id","channel","user":{"id","name","mod"},"text","ts"}` and
 * `{"op":"follow","id","channel","user":{"id","name"},"ts"}`.
 */
export interface FakeChatUser {
  id: string;
  name: string;
  mod?: boolean;
}

/** A line the server sends. */
export type ServerLine =
  | { op: "hello"; channel: string }
  | { op: "message"; id: string; channel: string; user: FakeChatUser; text: string; ts: number }
  | { op: "follow"; id: string; channel: string; user: FakeChatUser; ts: number };

/** A line the client sends. */
export type ClientLine = { op: "join"; channel: string } | { op: "say"; channel: string; text: string; reply_to: string | null };
