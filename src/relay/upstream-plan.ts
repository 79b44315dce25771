import type { ChatRequest } from '../core/chat-request.ts';
import { invalidRequest } from '../core/gateway-error.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Warning } from '../core/warning.ts';
import type { ProtocolCodec, ProtocolId } from '../protocols/protocol-codec.ts';
import { isRecord } from '../protocols/shared/is-record.ts';

/** How one attempt talks to its upstream: same protocol (passthrough) or translated. */
export interface UpstreamPlan {
  protocol: ProtocolId;
  passthrough: boolean;
  body: string;
  stream: boolean;
  warnings: Warning[];
}

export interface PlanInput {
  clientProtocol: ProtocolId;
  upstreamProtocol: ProtocolId;
  upstreamCodec: ProtocolCodec;
  clientBody: Record<string, unknown>;
  /** The client body's JSON text as received, forwarded as is when nothing in it changes. */
  rawBody?: string;
  stream: boolean;
  upstreamModel: string;
  /** Decodes the client body once, on first need (passthrough attempts never need it). */
  decodeClientRequest: () => { request: ChatRequest; warnings: Warning[] };
  runtime: RuntimeContext;
}

/**
 * Builds the upstream body. On the passthrough lane the client's JSON goes out as it came,
 * with only the model rewritten (Gemini names the model in the URL, so its body is untouched)
 * and, for OpenAI chat streams, usage reporting switched on so the gateway can meter.
 */
export function planUpstreamRequest(input: PlanInput): UpstreamPlan {
  if (input.clientProtocol === input.upstreamProtocol) {
    return {
      protocol: input.upstreamProtocol,
      passthrough: true,
      body: passthroughBody(input),
      stream: input.stream,
      warnings: [],
    };
  }
  const { request, warnings } = input.decodeClientRequest();
  const encoded = input.upstreamCodec.encodeRequest(
    { ...request, model: input.upstreamModel, stream: input.stream },
    input.runtime,
  );
  return {
    protocol: input.upstreamProtocol,
    passthrough: false,
    body: JSON.stringify(encoded.value.body),
    stream: input.stream,
    warnings: [...warnings, ...encoded.warnings],
  };
}

/**
 * The cheapest correct passthrough body: the client's own text when the model name stays and
 * nothing needs adding (re-serialising a 50 KB body costs ~120 µs), the text with usage
 * reporting spliced in when only that is missing, and a re-serialised copy otherwise.
 */
function passthroughBody(input: PlanInput): string {
  const body = input.clientBody;
  const raw = input.rawBody;
  const modelKept = input.upstreamProtocol === 'gemini-generate-content' || body.model === input.upstreamModel;
  if (raw !== undefined && modelKept) {
    const needsUsage =
      input.upstreamProtocol === 'openai-chat' &&
      input.stream &&
      !(isRecord(body.stream_options) && body.stream_options.include_usage === true);
    if (!needsUsage) return raw;
    if (body.stream_options === undefined) return appendField(raw, '"stream_options":{"include_usage":true}');
  }
  return serializeClientBody(rewriteForPassthrough(input));
}

/** Adds a member to the top-level JSON object `raw` (known to be an object with members). */
function appendField(raw: string, member: string): string {
  const end = raw.lastIndexOf('}');
  return `${raw.slice(0, end)},${member}${raw.slice(end)}`;
}

function rewriteForPassthrough(input: PlanInput): Record<string, unknown> {
  const body = input.clientBody;
  switch (input.upstreamProtocol) {
    case 'gemini-generate-content':
      return body;
    case 'openai-chat':
      if (input.stream) {
        const streamOptions = isRecord(body.stream_options) ? body.stream_options : {};
        return { ...body, model: input.upstreamModel, stream_options: { ...streamOptions, include_usage: true } };
      }
      return { ...body, model: input.upstreamModel };
    case 'openai-responses':
    case 'anthropic-messages':
      return { ...body, model: input.upstreamModel };
    default: {
      const unreachable: never = input.upstreamProtocol;
      return unreachable;
    }
  }
}

/**
 * The passthrough lane never decodes the body, so a pathologically nested one first shows up
 * here, as the serializer running out of stack: that is the client's fault, not a crash.
 */
function serializeClientBody(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError) throw invalidRequest('The request body is nested too deeply to process.');
    throw error;
  }
}
