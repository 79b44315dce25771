import type { LedgerRows } from './ledger-entry.ts';

/** One row per generation request, relayed or refused: what was asked, where it went, what it cost. */
export interface UsageLogEntry {
  requestId: string;
  /** Epoch ms when the request arrived. */
  time: number;
  keyId: string | null;
  keyName: string | null;
  group: string | null;
  /** The model name the client asked for. */
  model: string | null;
  /** The model name sent upstream after the channel's model map. */
  upstreamModel: string | null;
  channelId: string | null;
  channelName: string | null;
  clientProtocol: string | null;
  upstreamProtocol: string | null;
  /** The URL prefix surface, e.g. `antigravity`, or null for the root surfaces. */
  surface: string | null;
  status: number;
  errorCode: string | null;
  errorMessage: string | null;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  costMicros: number;
  latencyMs: number;
  /** Time to first byte sent to the client; null when nothing was streamed. */
  ttftMs: number | null;
  stream: boolean;
  warnings: string[];
  /** Each upstream attempt in order: which channel, what status, what error. */
  attempts: UsageAttempt[];
  clientIp: string | null;
  /** The key's user when the request was made, if any. */
  userId?: string | null;
  /** What paid: a subscription, the user's wallet or the key's own balance; absent/null = nothing charged. */
  paidBy?: PaidBy | null;
  /** Set when `paidBy` is `subscription`. */
  subscriptionId?: string | null;
  /** How the request arrived; absent means HTTP (a Responses WebSocket turn says `websocket`). */
  transport?: UsageTransport;
  /**
   * The request's ledger rows (issue 27: one per upstream attempt and per payer), written in the
   * same transaction as this row, so the ledger costs no write of its own on the request path.
   */
  ledger?: LedgerRows;
}

export type UsageTransport = 'http' | 'websocket';

export type PaidBy = 'subscription' | 'wallet' | 'key_balance';

export interface UsageAttempt {
  channelId: string;
  channelName: string;
  status: number | null;
  errorCode: string | null;
  /** The upstream's own error type (OpenAI/Anthropic `error.type`, Gemini `status`, Bedrock's `x-amzn-errortype`), when it named one. */
  upstreamType?: string;
  latencyMs: number;
  /** The channel's upstream key the attempt used (its index), when one was leased; the ledger keeps it. */
  keyIndex?: number;
  /** The upstream's id for the request (`x-request-id`, `request-id`, `x-amzn-requestid`), when it sent one. */
  upstreamRequestId?: string;
}
