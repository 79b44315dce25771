import type { ChatResponse } from '../core/chat-response.ts';
import type { StreamEvent } from '../core/stream-event.ts';

/**
 * Some upstream wires name no model in their replies (Bedrock Converse never does; a Gemini
 * reply may lack `modelVersion`), and their decoders leave `model` empty. Every client
 * protocol's reply has a model field its SDKs read, so the relay names the model it called,
 * as the reply of any upstream that names it would. A model the upstream did name is kept.
 */
export function nameReplyModel(response: ChatResponse, upstreamModel: string): ChatResponse {
  return response.model === '' ? { ...response, model: upstreamModel } : response;
}

/** The same for a stream: the model rides on `response-start`. */
export function nameStreamModel(upstreamModel: string): (event: StreamEvent) => StreamEvent[] {
  return (event) => [event.type === 'response-start' && event.model === '' ? { ...event, model: upstreamModel } : event];
}
