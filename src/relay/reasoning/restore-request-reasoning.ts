import type { AssistantContentPart, AssistantMessage, ChatRequest, Message, ReasoningPart } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import type { UpstreamProtocolId } from '../../protocols/protocol-codec.ts';
import type { EnvelopeSealer, ReasoningState } from './reasoning-envelope.ts';
import { looksLikeEnvelope } from './reasoning-envelope.ts';
import { takeCarriedValues } from './reasoning-slots.ts';

export interface ReasoningRestoreContext {
  sealer: EnvelopeSealer;
  upstream: UpstreamProtocolId;
  channelId: string;
  /**
   * Envelopes the gateway kept under tool-call ids (for clients that dropped theirs), already
   * looked up for the ids `callIdsToRecall` named: restoring stays synchronous and pure.
   */
  recall?: (callId: string) => string | undefined;
  /** The client speaks the upstream's protocol: its raw (non-envelope) values are the upstream's own and stay. */
  keepRaw?: boolean;
}

/**
 * One attempt's restore context, built before the request is decoded: envelopes sealed for
 * `upstream` on this channel open; the client's raw values stay only when it speaks the
 * upstream's own protocol (they are that upstream's state).
 */
export function restoreContextFor(sealer: EnvelopeSealer, channelId: string, upstream: UpstreamProtocolId, clientProtocol: string): ReasoningRestoreContext {
  return { sealer, upstream, channelId, keepRaw: clientProtocol === upstream };
}

/**
 * A translated request, just before it is encoded for its upstream: every opaque value a client
 * carried is taken off its parts, envelopes sealed for this upstream protocol on this channel are
 * opened and their state put back where the upstream issued it, and everything else (envelopes
 * for elsewhere, forged ones, raw values from another provider) is dropped. The upstream thus
 * receives only state it issued itself.
 */
export function restoreRequestReasoning(request: ChatRequest, context: ReasoningRestoreContext): { request: ChatRequest; warnings: Warning[] } {
  let foreign = 0;
  let forged = 0;
  let recalled = false;
  const messages = request.messages.map((message): Message => {
    if (message.role !== 'assistant') return message;
    const content = structuredClone(message.content);
    const states: ReasoningState[] = [];
    let carried = 0;
    for (const part of content) {
      for (const value of takeCarriedValues(part, context.keepRaw ? looksLikeEnvelope : () => true)) {
        if (!looksLikeEnvelope(value)) continue;
        carried += 1;
        const opened = context.sealer.open(value);
        if (!opened) forged += 1;
        else if (opened.protocol !== context.upstream || opened.channelId !== context.channelId) foreign += 1;
        else states.push(...opened.states);
      }
    }
    if (carried === 0 && context.recall) {
      for (const part of content) {
        if (part.type !== 'tool-call') continue;
        const kept = context.recall(part.callId);
        const opened = kept === undefined ? undefined : context.sealer.open(kept);
        if (opened && opened.protocol === context.upstream && opened.channelId === context.channelId) {
          states.push(...opened.states);
          recalled = true;
          break;
        }
      }
    }
    return { role: 'assistant', content: applyStates(content, dedupe(states)) } satisfies AssistantMessage;
  });
  const warnings: Warning[] = [];
  if (foreign > 0) {
    warnings.push({
      type: 'compatibility',
      feature: 'reasoning_state',
      detail: `${foreign} reasoning state envelope(s) issued for another channel or provider were dropped; only the upstream that issued reasoning can take it back`,
    });
  }
  if (forged > 0) {
    warnings.push({
      type: 'compatibility',
      feature: 'reasoning_state',
      detail: `${forged} reasoning state envelope(s) failed authentication and were dropped`,
    });
  }
  if (recalled) {
    warnings.push({
      type: 'compatibility',
      feature: 'reasoning_state_recalled',
      detail: 'the client dropped the reasoning state; the gateway restored it from its tool-call cache',
    });
  }
  return { request: { ...request, messages }, warnings };
}

/**
 * The tool-call ids whose kept envelopes this request could use: those of assistant turns that
 * carry no envelope of their own (what `restoreRequestReasoning` falls back to the cache for).
 * The relay reads them all in one kv round trip before restoring. Nothing on the parts changes.
 */
export function callIdsToRecall(request: ChatRequest): string[] {
  const callIds: string[] = [];
  for (const message of request.messages) {
    if (message.role !== 'assistant') continue;
    let carries = false;
    // `take` answering false leaves every value in place: this only looks.
    const notice = (value: string) => {
      if (looksLikeEnvelope(value)) carries = true;
      return false;
    };
    for (const part of message.content) takeCarriedValues(part, notice);
    if (carries) continue;
    for (const part of message.content) if (part.type === 'tool-call' && part.callId !== '') callIds.push(part.callId);
  }
  return callIds;
}

function dedupe(states: ReasoningState[]): ReasoningState[] {
  const seen = new Set<string>();
  return states.filter((state) => {
    const key = JSON.stringify(state);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Puts recovered state back in the upstream's own fields: Anthropic thinking and OpenAI
 * reasoning lead the turn (replacing the client's copies of their text), Gemini signatures go
 * back onto the function call (by id) or text part they came with. Empty reasoning carriers go.
 */
function applyStates(content: AssistantContentPart[], states: ReasoningState[]): AssistantContentPart[] {
  const leading: ReasoningPart[] = [];
  // Recovered state makes the client's copies of the thought text redundant: the upstream
  // either gets its own blocks back below or (Gemini) never needs unsigned thoughts.
  let replacesReasoning = states.length > 0;
  let textSignature: string | undefined;
  for (const state of states) {
    switch (state.kind) {
      case 'anthropic-thinking':
        leading.push({ type: 'reasoning', text: state.text, signature: state.signature });
        replacesReasoning = true;
        break;
      case 'anthropic-redacted':
        leading.push({ type: 'reasoning', text: '', redactedData: state.data });
        replacesReasoning = true;
        break;
      case 'openai-reasoning':
        leading.push({
          type: 'reasoning',
          text: state.text,
          providerMetadata: { openai: { encryptedContent: state.encryptedContent, ...(state.itemId === undefined ? {} : { itemId: state.itemId }) } },
        });
        replacesReasoning = true;
        break;
      case 'gemini-thought':
        leading.push({ type: 'reasoning', text: state.text, providerMetadata: { gemini: { thoughtSignature: state.signature } } });
        replacesReasoning = true;
        break;
      case 'gemini-call': {
        const call = content.find((part) => part.type === 'tool-call' && part.callId === state.callId);
        if (call) call.providerMetadata = { ...call.providerMetadata, gemini: { ...call.providerMetadata?.gemini, thoughtSignature: state.signature } };
        break;
      }
      case 'gemini-text':
        textSignature = state.signature;
        break;
      default: {
        const unreachable: never = state;
        return unreachable;
      }
    }
  }
  if (textSignature !== undefined) {
    const text = content.find((part) => part.type === 'text');
    if (text) text.providerMetadata = { ...text.providerMetadata, gemini: { ...text.providerMetadata?.gemini, thoughtSignature: textSignature } };
  }
  const rest = content.filter(
    (part) =>
      part.type !== 'reasoning' ||
      (!replacesReasoning && (part.text !== '' || part.signature !== undefined || part.redactedData !== undefined || part.providerMetadata !== undefined)),
  );
  return [...leading, ...rest];
}
