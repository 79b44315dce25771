import type { AssistantContentPart } from '../../core/chat-request.ts';
import { isRecord } from '../shared/is-record.ts';

/** Response output items → canonical assistant parts; ids and encrypted reasoning ride along. */
export function decodeOpenAiResponsesOutput(output: unknown): AssistantContentPart[] {
  const parts: AssistantContentPart[] = [];
  if (!Array.isArray(output)) return parts;
  for (const item of output) {
    if (!isRecord(item)) continue;
    const itemId = typeof item.id === 'string' ? item.id : undefined;
    switch (item.type) {
      case 'message':
        for (const part of Array.isArray(item.content) ? item.content : []) {
          if (!isRecord(part)) continue;
          const text = part.type === 'refusal' ? part.refusal : part.text;
          if (typeof text === 'string') {
            parts.push({ type: 'text', text, ...(itemId ? { providerMetadata: { openai: { itemId } } } : {}) });
          }
        }
        break;
      case 'function_call':
      case 'custom_tool_call':
        if (typeof item.name !== 'string') break;
        parts.push({
          type: 'tool-call',
          callId: typeof item.call_id === 'string' ? item.call_id : (itemId ?? ''),
          name: item.name,
          arguments:
            item.type === 'custom_tool_call'
              ? JSON.stringify({ input: typeof item.input === 'string' ? item.input : '' })
              : typeof item.arguments === 'string'
                ? item.arguments
                : '',
          ...(itemId ? { providerMetadata: { openai: { itemId } } } : {}),
        });
        break;
      case 'reasoning': {
        const summary = Array.isArray(item.summary) ? item.summary : [];
        const texts = summary.flatMap((entry) => (isRecord(entry) && typeof entry.text === 'string' ? [entry.text] : []));
        const openai: { itemId?: string; encryptedContent?: string } = {};
        if (itemId) openai.itemId = itemId;
        if (typeof item.encrypted_content === 'string') openai.encryptedContent = item.encrypted_content;
        parts.push({ type: 'reasoning', text: texts.join('\n\n'), providerMetadata: { openai } });
        break;
      }
      default:
        // Hosted-tool items (web_search_call, …) describe work OpenAI already did; nothing to relay.
        break;
    }
  }
  return parts;
}
