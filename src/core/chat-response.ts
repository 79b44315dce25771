import type { AssistantContentPart } from './chat-request.ts';
import type { FinishReason } from './finish-reason.ts';
import type { Usage } from './usage.ts';

/** A complete, non-streamed model reply in canonical form. */
export interface ChatResponse {
  id: string;
  /** The model name as the client should see it (the public name it asked for). */
  model: string;
  /** Creation time in milliseconds since the epoch. */
  createdAt: number;
  content: AssistantContentPart[];
  finishReason: FinishReason;
  usage: Usage;
}
