import type { ChatRequest } from '../core/chat-request.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Warning } from '../core/warning.ts';
import type { ProtocolCodec, ProtocolId, UpstreamProtocolId } from '../protocols/protocol-codec.ts';

/** How one attempt talks to its upstream: same protocol (passthrough) or translated. */
export interface UpstreamPlan {
  protocol: UpstreamProtocolId;
  passthrough: boolean;
  body: string;
  stream: boolean;
  warnings: Warning[];
}

export interface PlanInput {
  clientProtocol: ProtocolId;
  upstreamProtocol: UpstreamProtocolId;
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
 * with only what the protocol's passthrough lane rewrites (the model, usage reporting); on
 * the translated lane the client's request, decoded once, is encoded for the upstream.
 */
export function planUpstreamRequest(input: PlanInput): UpstreamPlan {
  if (input.clientProtocol === input.upstreamProtocol) {
    return {
      protocol: input.upstreamProtocol,
      passthrough: true,
      body: input.upstreamCodec.passthrough.upstreamBody({
        body: input.clientBody,
        ...(input.rawBody === undefined ? {} : { rawBody: input.rawBody }),
        upstreamModel: input.upstreamModel,
        stream: input.stream,
      }),
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
