/**
 * @ovation/client/socket: `connect()` to an Ovation server's socket, with typed server events, room
 * joins, acknowledgements, reconnection that recovers missed events, and the `serverid` cookie.
 */
export { connect } from "./connect.js";
export type { ConnectOptions, OvationSocket, RawOvationSocket, ServerEventName, ServerEventPayload, SocketState, SocketStatus } from "./connect.js";
export { OvationSocketError } from "./socket-errors.js";
export { SERVER_ID_COOKIE, fetchServerIds, chooseServerId, serverIdCookie } from "./server-id.js";
