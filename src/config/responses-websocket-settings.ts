/** RESPONSES_WEBSOCKET and the limits of a Responses WebSocket (see server/generation/responses-websocket.ts). */
export interface ResponsesWebSocketSettings {
  /** RESPONSES_WEBSOCKET; off: every upgrade is answered 426 (use HTTP). */
  enabled: boolean;
  /** RESPONSES_WEBSOCKET_MAX_PER_KEY: open sockets per key, across instances (kv leases). */
  maxPerKey: number;
  /** A socket with no message and no response in flight for this long is closed (1000). */
  idleMs: number;
  /** Ping period; a socket that did not answer the previous ping is dropped. */
  pingMs: number;
}

/**
 * On by default, as OpenAI's own endpoint; 16 sockets a key (Codex opens one per session);
 * 10 idle minutes (an agent thinking between turns keeps its socket, a forgotten one goes);
 * a ping every 30 s, under the idle timeouts of common load balancers.
 */
export const DEFAULT_RESPONSES_WEBSOCKET: ResponsesWebSocketSettings = { enabled: true, maxPerKey: 16, idleMs: 600_000, pingMs: 30_000 };
