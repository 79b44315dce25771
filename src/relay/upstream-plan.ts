import type { ChatRequest } from '../core/chat-request.ts';
import type { RuntimeContext } from '../core/runtime-context.ts';
import type { Warning } from '../core/warning.ts';
import { ENVELOPE_PREFIX } from './reasoning/reasoning-envelope.ts';
import { restoreRequestReasoning, type ReasoningRestoreContext } from './reasoning/restore-request-reasoning.ts';
import type { ProtocolCodec, ProtocolId, UpstreamProtocolId } from '../protocols/protocol-codec.ts';
import { assertJsonDepth } from '../protocols/shared/assert-json-depth.ts';

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
  /** Reasoning state the gateway sealed for clients: opened for this upstream and channel. */
  reasoning?: ReasoningRestoreContext;
}

/**
 * Builds the upstream body. On the passthrough lane the client's JSON goes out as it came,
 * with only what the protocol's passthrough lane rewrites (the model, usage reporting); on
 * the translated lane the client's request, decoded once, is encoded for the upstream.
 */
export function planUpstreamRequest(input: PlanInput, passthrough = takesPassthroughLane(input)): UpstreamPlan {
  if (passthrough) {
    // The translated lane's decoder applies this rule; the passthrough lane never decodes, so
    // it applies the same one here rather than forwarding a 100k-level body to the upstream.
    assertJsonDepth(input.clientBody);
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
  const decoded = input.decodeClientRequest();
  const restored = input.reasoning ? restoreRequestReasoning(decoded.request, input.reasoning) : { request: decoded.request, warnings: [] };
  const encoded = input.upstreamCodec.encodeRequest({ ...restored.request, model: input.upstreamModel, stream: input.stream }, input.runtime);
  const warnings = [...decoded.warnings, ...restored.warnings, ...encoded.warnings];
  input.upstreamCodec.enforceOnEncoded?.(encoded.value.body, warnings);
  return {
    protocol: input.upstreamProtocol,
    passthrough: false,
    body: JSON.stringify(encoded.value.body),
    stream: input.stream,
    warnings,
  };
}

/**
 * Whether the client's body goes out on the passthrough lane (decided once per attempt; the
 * relay asks first, to look up kept reasoning state only for translated attempts). A body
 * carrying the gateway's reasoning envelopes (from a turn another provider served) must be
 * unwrapped, never forwarded: the upstream would refuse them as corrupt signatures.
 */
export function takesPassthroughLane(input: PlanInput): boolean {
  return input.clientProtocol === input.upstreamProtocol && !carriesEnvelopes(input);
}

/** Envelopes are whole JSON string values, so the marker follows a quote (base64 inside images never starts one). */
const QUOTED_ENVELOPE = `"${ENVELOPE_PREFIX}`;

function carriesEnvelopes(input: PlanInput): boolean {
  if (!input.reasoning) return false;
  if (input.rawBody !== undefined) return input.rawBody.includes(QUOTED_ENVELOPE);
  try {
    return JSON.stringify(input.clientBody).includes(QUOTED_ENVELOPE);
  } catch {
    return false;
  }
}
