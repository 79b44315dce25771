import type { ChatRequest, ToolChoice } from '../../core/chat-request.ts';
import type { Warning } from '../../core/warning.ts';
import { encodeOpenAiReasoningEffort } from '../openai-chat/openai-reasoning-effort.ts';
import { encodeOpenAiResponseFormat } from '../openai-chat/openai-response-format.ts';
import type { Decoded, UpstreamRequestOutput } from '../protocol-codec.ts';
import { encodeOpenAiResponsesInput } from './encode-openai-responses-input.ts';

function toolChoice(choice: ToolChoice): unknown {
  switch (choice.type) {
    case 'auto':
    case 'none':
    case 'required':
      return choice.type;
    case 'tool':
      return { type: 'function', name: choice.name };
    default: {
      const unreachable: never = choice;
      return unreachable;
    }
  }
}

/** The canonical request → a strict Responses body for an OpenAI host, stateless (`store:false`). */
export function encodeOpenAiResponsesRequest(request: ChatRequest): Decoded<UpstreamRequestOutput> {
  const warnings: Warning[] = [];
  const body: Record<string, unknown> = { model: request.model };
  if (request.system.length > 0) body.instructions = request.system.map((part) => part.text).join('\n\n');
  body.input = encodeOpenAiResponsesInput(request.messages, warnings);
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
      // Responses defaults `strict` to true, which rejects most hand-written schemas.
      strict: tool.strict ?? false,
    }));
    if (request.parallelToolCalls !== undefined) body.parallel_tool_calls = request.parallelToolCalls;
  }
  if (request.toolChoice) body.tool_choice = toolChoice(request.toolChoice);
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.topP !== undefined) body.top_p = request.topP;
  const unsupported = [
    ['topK', 'top_k'],
    ['stopSequences', 'stop'],
    ['seed', 'seed'],
    ['presencePenalty', 'presence_penalty'],
    ['frequencyPenalty', 'frequency_penalty'],
    ['candidateCount', 'n'],
  ] as const;
  for (const [field, feature] of unsupported) {
    if (request[field] !== undefined) {
      warnings.push({ type: 'unsupported', feature, detail: 'the Responses API has no such parameter; it was not sent' });
    }
  }
  if (request.reasoning) {
    const effort = encodeOpenAiReasoningEffort(request.reasoning, warnings);
    if (effort !== undefined) body.reasoning = { effort };
    // Stateless calls keep the reasoning chain only through its encrypted form, handed back next turn.
    if (request.reasoning.enabled) body.include = ['reasoning.encrypted_content'];
  }
  if (request.responseFormat) body.text = { format: encodeOpenAiResponseFormat(request.responseFormat, (spec) => spec) };
  if (request.user !== undefined) body.user = request.user;
  body.stream = request.stream;
  body.store = false;
  return { value: { body, model: request.model, stream: request.stream }, warnings };
}
