import type { Usage } from '../../core/usage.ts';
import type { ResponseStateEcho } from '../protocol-codec.ts';
import type { OutputItem } from './build-openai-responses-output-item.ts';
import { toOpenAiResponsesUsage, type OpenAiResponsesUsage } from './convert-openai-responses-usage.ts';
import type { OpenAiIncompleteDetails } from './map-openai-responses-status.ts';

export interface ResponsesObjectInput {
  id: string;
  /** Seconds since the epoch. */
  createdAt: number;
  model: string;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: OutputItem[];
  usage?: Usage;
  incompleteDetails?: OpenAiIncompleteDetails;
  error?: { code: string; message: string } | null;
  /** `store` and `previous_response_id` as the request set them (default false, null). */
  state?: ResponseStateEcho;
}

/**
 * The Response object, with every field the SDK types mark required. Request echoes the gateway
 * does not know (temperature, tools) are written as their "not set" values.
 */
export function buildOpenAiResponsesObject(input: ResponsesObjectInput): Record<string, unknown> {
  const usage: OpenAiResponsesUsage | null = input.usage ? toOpenAiResponsesUsage(input.usage) : null;
  return {
    id: input.id,
    object: 'response',
    created_at: input.createdAt,
    status: input.status,
    background: false,
    error: input.error ?? null,
    incomplete_details: input.incompleteDetails ?? null,
    instructions: null,
    max_output_tokens: null,
    model: input.model,
    output: input.output,
    parallel_tool_calls: true,
    previous_response_id: input.state?.previousResponseId ?? null,
    reasoning: { effort: null, summary: null },
    store: input.state?.store ?? false,
    temperature: null,
    text: { format: { type: 'text' } },
    tool_choice: 'auto',
    tools: [],
    top_p: null,
    truncation: 'disabled',
    usage,
    metadata: {},
  };
}
