import { GatewayError } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Usage } from '../core/usage.ts';
import type { ChatResponse } from '../core/chat-response.ts';
import type { ProtocolCodec, StreamEncoderOptions } from '../protocols/protocol-codec.ts';
import { toGatewayError, type UpstreamResponse } from './channels/upstream-client.ts';
import { microsToUsd } from '../domain/money.ts';
import type { ClientWriter } from './client-writer.ts';
import { DEFAULT_REPLY_LIMITS, readReplyText, type ReplyLimits } from './reply-limits.ts';
import { isRecord } from '../protocols/shared/is-record.ts';

export interface SendReplyInput {
  response: UpstreamResponse;
  passthrough: boolean;
  clientCodec: ProtocolCodec;
  upstreamCodec: ProtocolCodec;
  runtime: RuntimeContext;
  writer: ClientWriter;
  headers: Record<string, string>;
  /** What the client asked of the reply (custom tools, …), as for its stream encoder. */
  encoderOptions?: StreamEncoderOptions;
  /** Translated lane only: rewrites the decoded reply before it is encoded (reasoning sealing). */
  transformResponse?: (response: ChatResponse) => ChatResponse;
  /** A plain reply is held whole: at most `maxEventBytes` of it (default DEFAULT_REPLY_LIMITS). */
  limits?: ReplyLimits;
  /** What the reply costs its payer (micro-USD): the `x-switchyard-cost` header (see RelayInput). */
  quoteCost?: (usage: Usage | undefined, deliveredChars: number) => number;
  /** Also put the cost in the body's `usage.cost` (USD), as OpenRouter does. */
  reportCost?: boolean;
}

/** The header every plain reply carries with its cost to the payer, in USD. */
export const COST_HEADER = 'x-switchyard-cost';

export interface ReplyOutcome {
  usage: Usage | undefined;
  error: GatewayError | undefined;
  /** Characters of text, reasoning and tool arguments in the reply, to estimate usage an upstream did not report. */
  deliveredChars: number;
}

/**
 * A non-streamed reply. Passthrough sends the upstream's bytes unchanged and reads only its
 * usage; the translated lane decodes the reply and encodes it for the client.
 */
export async function sendReply(input: SendReplyInput): Promise<ReplyOutcome> {
  let text: string;
  try {
    text = await readReplyText(input.response.body, (input.limits ?? DEFAULT_REPLY_LIMITS).maxEventBytes);
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error), deliveredChars: 0 };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {
      usage: undefined,
      error: new GatewayError('upstream_invalid_response', 'The upstream sent a reply that is not valid JSON.'),
      deliveredChars: 0,
    };
  }

  if (input.passthrough) {
    let usage: Usage | undefined;
    // Undecodable: the whole reply's length stands in for its content (an estimate that errs high).
    let deliveredChars = text.length;
    try {
      const decoded = input.upstreamCodec.decodeResponse(parsed, input.runtime).value;
      usage = decoded.usage;
      deliveredChars = contentChars(decoded);
    } catch {
      // Unusual but valid for the client: forward it anyway; usage stays unknown.
    }
    // The upstream's bytes go unchanged unless the client asked for the cost in them.
    const cost = priceReply(input, usage, deliveredChars, parsed);
    writeWhole(input, cost.changed ? JSON.stringify(parsed) : text);
    return { usage, error: undefined, deliveredChars };
  }

  try {
    const decoded = input.upstreamCodec.decodeResponse(parsed, input.runtime).value;
    const body = input.clientCodec.encodeResponse(input.transformResponse ? input.transformResponse(decoded) : decoded, input.runtime, input.encoderOptions);
    const deliveredChars = contentChars(decoded);
    priceReply(input, decoded.usage, deliveredChars, body);
    writeWhole(input, JSON.stringify(body));
    return { usage: decoded.usage, error: undefined, deliveredChars };
  } catch (error) {
    return { usage: undefined, error: toGatewayError(error), deliveredChars: 0 };
  }
}

/**
 * Sets the cost header and, when the client asked, `usage.cost` (USD) in the body (an OpenAI-shape
 * body: chat or Responses). Says whether the body changed.
 */
function priceReply(input: SendReplyInput, usage: Usage | undefined, deliveredChars: number, body: unknown): { changed: boolean } {
  if (input.quoteCost === undefined) return { changed: false };
  const usd = microsToUsd(input.quoteCost(usage, deliveredChars));
  input.headers[COST_HEADER] = String(usd);
  if (input.reportCost !== true || !isRecord(body) || !isRecord(body.usage)) return { changed: false };
  body.usage.cost = usd;
  return { changed: true };
}

/**
 * The whole reply with its length: the client gets one plain body instead of a chunked one
 * (no chunk framing, and Node writes head and body as one string instead of gathering five parts
 * into a writev).
 */
function writeWhole(input: SendReplyInput, text: string): void {
  input.headers['content-length'] = String(Buffer.byteLength(text));
  input.writer.writeHead(200, input.headers);
  input.writer.end(text);
}

/** Characters a reply generated: text, reasoning, tool names and arguments. */
function contentChars(response: ChatResponse): number {
  let chars = 0;
  for (const part of response.content) {
    if (part.type === 'tool-call') chars += part.name.length + part.arguments.length;
    else chars += part.text.length;
  }
  return chars;
}
