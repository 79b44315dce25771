import type { ChatRequest, ToolChoice } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import type { Decoded, UpstreamRequestOutput } from '../protocol-codec.ts';
import { encodeOpenAiChatMessages } from './encode-openai-chat-messages.ts';
import { encodeOpenAiReasoningEffort } from './openai-reasoning-effort.ts';
import { encodeOpenAiResponseFormat } from './openai-response-format.ts';

type WireToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

function toolChoice(choice: ToolChoice): WireToolChoice {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', function: { name: choice.name } };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}

/** The canonical request → a strict Chat Completions body for an upstream. */
export function encodeOpenAiChatRequest(request: ChatRequest): Decoded<UpstreamRequestOutput> {
  const warnings: Warning[] = [];
  const body: Record<string, unknown> = {
    model: request.model,
    messages: encodeOpenAiChatMessages(request.system, request.messages, warnings),
  };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        parameters: tool.parameters,
        ...(tool.strict === undefined ? {} : { strict: tool.strict }),
      },
    }));
    // OpenAI rejects parallel_tool_calls without tools, and it means nothing there anyway.
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice) body.tool_choice = toolChoice(request.toolChoice);
  // max_completion_tokens is the only limit reasoning models accept.
  if (request.maxOutputTokens !== undefined) body.max_completion_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  if (request.topK !== undefined) {
    warnings.push({ type: 'unsupported', feature: 'top_k', detail: 'OpenAI chat has no top_k; it was not sent' });
  }
  if (request.stopSequences !== undefined) body.stop = request.stopSequences;
  if (request.candidateCount !== undefined) body.n = request.candidateCount;
  if (request.seed !== undefined) body.seed = request.seed;
  if (request.presencePenalty !== undefined) body.presence_penalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) body.frequency_penalty = request.frequencyPenalty;
  if (request.responseFormat) body.response_format = encodeOpenAiResponseFormat(request.responseFormat, (spec) => ({ json_schema: spec }));
  if (request.reasoning) {
    const effort = encodeOpenAiReasoningEffort(request.reasoning, warnings);
    if (effort !== undefined) body.reasoning_effort = effort;
  }
  if (request.user !== undefined) body.user = request.user;
  if (request.stream) {
    body.stream = true;
    // The gateway meters every stream, so it always asks for the final usage chunk.
    body.stream_options = { include_usage: true };
  }
  return { value: { body, model: request.model, stream: request.stream }, warnings };
}
