import type { ToolChoice, ToolDefinition } from '../../core/chat-request.ts';
import type { AnthropicTool, AnthropicToolChoice } from './anthropic-wire-types.ts';
import { withCacheControl } from './encode-anthropic-media.ts';

export function encodeAnthropicTools(tools: ToolDefinition[]): AnthropicTool[] {
  return tools.map((tool) => {
    // Anthropic insists on an object schema; a schema that does not say so is one implicitly.
    const schema = tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters;
    const encoded: AnthropicTool = {
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      input_schema: schema,
    };
    if (tool.strict !== undefined) encoded.strict = tool.strict;
    return withCacheControl(encoded, tool.providerMetadata);
  });
}

/** `tool_choice` is only sent with tools (Anthropic rejects it alone, and it means nothing then). */
export function encodeAnthropicToolChoice(toolChoice: ToolChoice | undefined, parallelToolCalls: boolean | undefined): AnthropicToolChoice | undefined {
  const disableParallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (toolChoice === undefined) {
    return parallelToolCalls === false ? { type: 'auto', ...disableParallel } : undefined;
  }
  const type = toolChoice.type;
  switch (type) {
    case 'auto':
      return { type: 'auto', ...disableParallel };
    case 'required':
      return { type: 'any', ...disableParallel };
    case 'tool':
      return { type: 'tool', name: toolChoice.name, ...disableParallel };
    case 'none':
      return { type: 'none' };
    default: {
      const unreachable: never = type;
      throw new Error(`unknown tool choice ${String(unreachable)}`);
    }
  }
}
