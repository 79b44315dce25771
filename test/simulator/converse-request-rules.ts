/**
 * What bedrock-runtime checks in a Converse / ConverseStream body before a model sees it, as
 * one function both fakes can call: the shapes of the API reference (ContentBlock is a union
 * with exactly one member; roles alternate from `user`; a tool result answers a tool use of the
 * turn before; tool ids and names match `^[a-zA-Z0-9_-]{1,64}$`; `toolConfig` is required once
 * the history holds tool blocks) and Claude's own rules when thinking is on. A finding is the
 * message Bedrock would put in its ValidationException; `undefined` means the body is sound.
 * Unknown members are refused too (Bedrock's Smithy validation is stricter than most readers,
 * and a gateway should never send a field the API does not define).
 */
export function checkConverseRequest(body: unknown): string | undefined {
  try {
    checkBody(body);
    return undefined;
  } catch (error) {
    if (error instanceof ConverseRuleError) return error.message;
    throw error;
  }
}

class ConverseRuleError extends Error {}

type Json = Record<string, unknown>;

const TOP_LEVEL = new Set([
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'additionalModelResponseFieldPaths',
  'promptVariables',
  'requestMetadata',
  'performanceConfig',
]);
const INFERENCE = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences']);
const IMAGE_FORMATS = new Set(['png', 'jpeg', 'gif', 'webp']);
const DOCUMENT_FORMATS = new Set(['pdf', 'csv', 'doc', 'docx', 'xls', 'xlsx', 'html', 'txt', 'md']);
const IDENTIFIER = /^[a-zA-Z0-9_-]{1,64}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function fail(message: string): never {
  throw new ConverseRuleError(message);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function only(value: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(`Malformed input request: ${where}: extraneous key [${key}] is not permitted`);
}

/** A Smithy union: exactly one member set. */
function unionMember(block: unknown, where: string): [string, unknown] {
  if (!isObject(block)) fail(`Malformed input request: ${where} must be an object`);
  const keys = Object.keys(block);
  if (keys.length !== 1) fail(`Malformed input request: ${where} must set exactly one member, it sets [${keys.join(', ')}]`);
  return [keys[0]!, block[keys[0]!]];
}

function checkText(value: unknown, where: string): void {
  if (typeof value !== 'string') fail(`Malformed input request: ${where}.text must be a string`);
  if (value.trim() === '') fail(`The text field in the ContentBlock object at ${where} is blank. Add text to the text field, and try again.`);
}

function checkBytesSource(value: unknown, where: string): void {
  if (!isObject(value)) fail(`Malformed input request: ${where}.source must be an object`);
  const [member, bytes] = unionMember(value, `${where}.source`);
  if (member !== 's3Location' && member !== 'bytes') fail(`Malformed input request: ${where}.source.${member} is not a source`);
  if (member === 'bytes' && (typeof bytes !== 'string' || bytes === '' || !BASE64.test(bytes)))
    fail(`Malformed input request: ${where}.source.bytes must be base64`);
}

function checkImage(value: unknown, where: string): void {
  if (!isObject(value)) fail(`Malformed input request: ${where}.image must be an object`);
  only(value, ['format', 'source'], `${where}.image`);
  if (typeof value.format !== 'string' || !IMAGE_FORMATS.has(value.format))
    fail(`Malformed input request: ${where}.image.format must be one of png, jpeg, gif, webp`);
  checkBytesSource(value.source, `${where}.image`);
}

function checkDocument(value: unknown, where: string): void {
  if (!isObject(value)) fail(`Malformed input request: ${where}.document must be an object`);
  only(value, ['format', 'name', 'source', 'context', 'citations'], `${where}.document`);
  if (typeof value.format !== 'string' || !DOCUMENT_FORMATS.has(value.format))
    fail(`Malformed input request: ${where}.document.format is not a document format`);
  if (typeof value.name !== 'string' || !/^[A-Za-z0-9 ()[\]-]{1,200}$/.test(value.name))
    fail(`Malformed input request: ${where}.document.name has characters Bedrock does not allow`);
  checkBytesSource(value.source, `${where}.document`);
}

type Role = 'user' | 'assistant';

function checkBlock(block: unknown, role: Role, where: string, toolUses: Set<string>, toolResults: string[]): void {
  const [member, value] = unionMember(block, where);
  switch (member) {
    case 'text':
      return checkText(value, where);
    case 'image':
      return checkImage(value, where);
    case 'document':
      return checkDocument(value, where);
    case 'cachePoint':
      if (!isObject(value) || value.type !== 'default' || Object.keys(value).length !== 1)
        fail(`Malformed input request: ${where}.cachePoint must be {"type":"default"}`);
      return;
    case 'toolUse': {
      if (role !== 'assistant') fail(`Malformed input request: ${where}: toolUse blocks belong in assistant messages`);
      if (!isObject(value)) fail(`Malformed input request: ${where}.toolUse must be an object`);
      only(value, ['toolUseId', 'name', 'input'], `${where}.toolUse`);
      if (typeof value.toolUseId !== 'string' || !IDENTIFIER.test(value.toolUseId))
        fail(`${where}.toolUse.toolUseId failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
      if (typeof value.name !== 'string' || !IDENTIFIER.test(value.name))
        fail(`${where}.toolUse.name failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
      if (!isObject(value.input)) fail(`Malformed input request: ${where}.toolUse.input must be a JSON object`);
      toolUses.add(value.toolUseId);
      return;
    }
    case 'toolResult': {
      if (role !== 'user') fail(`Malformed input request: ${where}: toolResult blocks belong in user messages`);
      if (!isObject(value)) fail(`Malformed input request: ${where}.toolResult must be an object`);
      only(value, ['toolUseId', 'content', 'status'], `${where}.toolResult`);
      if (typeof value.toolUseId !== 'string' || !IDENTIFIER.test(value.toolUseId))
        fail(`${where}.toolResult.toolUseId failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
      if (value.status !== undefined && value.status !== 'success' && value.status !== 'error')
        fail(`Malformed input request: ${where}.toolResult.status must be success or error`);
      if (!Array.isArray(value.content)) fail(`Malformed input request: ${where}.toolResult.content must be an array`);
      value.content.forEach((part, index) => {
        const [kind, inner] = unionMember(part, `${where}.toolResult.content.${index}`);
        if (kind === 'text') checkText(inner, `${where}.toolResult.content.${index}`);
        else if (kind === 'image') checkImage(inner, `${where}.toolResult.content.${index}`);
        else if (kind === 'document') checkDocument(inner, `${where}.toolResult.content.${index}`);
        else if (kind !== 'json') fail(`Malformed input request: ${where}.toolResult.content.${index}.${kind} is not a tool result content block`);
      });
      toolResults.push(value.toolUseId);
      return;
    }
    case 'reasoningContent': {
      if (role !== 'assistant') fail(`Malformed input request: ${where}: reasoningContent belongs in assistant messages`);
      const [kind, inner] = unionMember(value, `${where}.reasoningContent`);
      if (kind === 'redactedContent') {
        if (typeof inner !== 'string' || !BASE64.test(inner)) fail(`Malformed input request: ${where}.reasoningContent.redactedContent must be base64`);
        return;
      }
      if (kind !== 'reasoningText' || !isObject(inner)) fail(`Malformed input request: ${where}.reasoningContent.${kind} is not a reasoning block`);
      only(inner, ['text', 'signature'], `${where}.reasoningContent.reasoningText`);
      if (typeof inner.text !== 'string') fail(`Malformed input request: ${where}.reasoningContent.reasoningText.text must be a string`);
      if (inner.signature !== undefined && typeof inner.signature !== 'string')
        fail(`Malformed input request: ${where}.reasoningContent.reasoningText.signature must be a string`);
      return;
    }
    case 'video':
    case 'guardContent':
    case 'citationsContent':
      return;
    default:
      fail(`Malformed input request: ${where}: [${member}] is not a content block`);
  }
}

function checkMessages(messages: unknown, thinking: boolean): { usesTools: boolean } {
  if (!Array.isArray(messages) || messages.length === 0)
    fail('Malformed input request: #: required key [messages] not found, please reformat your input and try again.');
  let usesTools = false;
  let previous: { role: Role; toolUses: Set<string> } | undefined;
  messages.forEach((message: unknown, index) => {
    const where = `messages.${index}`;
    if (!isObject(message)) fail(`Malformed input request: ${where} must be an object`);
    only(message, ['role', 'content'], where);
    const role = message.role;
    if (role !== 'user' && role !== 'assistant') fail(`Malformed input request: ${where}.role must be user or assistant`);
    if (index === 0 && role !== 'user') fail('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    if (previous?.role === role)
      fail(
        'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
      );
    if (!Array.isArray(message.content) || message.content.length === 0)
      fail(`The content field in the Message object at ${where} is empty. Add a ContentBlock object to the content field and try again.`);
    const toolUses = new Set<string>();
    const toolResults: string[] = [];
    message.content.forEach((block: unknown, blockIndex: number) => checkBlock(block, role, `${where}.content.${blockIndex}`, toolUses, toolResults));
    if (toolUses.size > 0 || toolResults.length > 0) usesTools = true;
    // Claude: every tool use is answered in the next user turn, and only tool uses are answered.
    for (const id of toolResults) {
      if (!previous?.toolUses.has(id)) fail(`${where}: the toolResult for ${id} does not answer a toolUse of the previous assistant message.`);
    }
    if (previous?.toolUses.size && role === 'user') {
      for (const id of previous.toolUses)
        if (!toolResults.includes(id)) fail(`${where}: the toolUse ${id} of the previous assistant message has no toolResult.`);
    }
    // With thinking on, Claude needs the last assistant turn, when it calls tools, to open with its reasoning.
    const lastAssistant = messages.findLastIndex((candidate: unknown) => isObject(candidate) && candidate.role === 'assistant');
    if (thinking && index === lastAssistant && toolUses.size > 0) {
      const first = message.content[0];
      if (!isObject(first) || first.reasoningContent === undefined)
        fail(`${where}: with thinking enabled, an assistant message with toolUse must start with a reasoningContent block.`);
    }
    previous = { role, toolUses };
  });
  return { usesTools };
}

function checkSystem(system: unknown): void {
  if (system === undefined) return;
  if (!Array.isArray(system)) fail('Malformed input request: system must be an array');
  system.forEach((block, index) => {
    const [member, value] = unionMember(block, `system.${index}`);
    if (member === 'text') checkText(value, `system.${index}`);
    else if (member === 'cachePoint') {
      if (!isObject(value) || value.type !== 'default') fail(`Malformed input request: system.${index}.cachePoint must be {"type":"default"}`);
    } else if (member !== 'guardContent') fail(`Malformed input request: system.${index}.${member} is not a system content block`);
  });
}

function checkInference(config: unknown): Json {
  if (config === undefined) return {};
  if (!isObject(config)) fail('Malformed input request: inferenceConfig must be an object');
  only(config, [...INFERENCE], 'inferenceConfig');
  const { maxTokens, temperature, topP, stopSequences } = config;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1))
    fail('inferenceConfig.maxTokens failed to satisfy constraint: Member must have value greater than or equal to 1');
  for (const [name, value] of [
    ['temperature', temperature],
    ['topP', topP],
  ] as const) {
    if (value !== undefined && (typeof value !== 'number' || value < 0 || value > 1))
      fail(`inferenceConfig.${name} failed to satisfy constraint: Member must have value between 0 and 1`);
  }
  if (stopSequences !== undefined && (!Array.isArray(stopSequences) || stopSequences.some((stop) => typeof stop !== 'string' || stop === ''))) {
    fail('Malformed input request: inferenceConfig.stopSequences must be an array of non-empty strings');
  }
  return config;
}

function checkToolConfig(toolConfig: unknown): void {
  if (!isObject(toolConfig)) fail('Malformed input request: toolConfig must be an object');
  only(toolConfig, ['tools', 'toolChoice'], 'toolConfig');
  if (!Array.isArray(toolConfig.tools) || toolConfig.tools.length === 0)
    fail('toolConfig.tools failed to satisfy constraint: Member must have length greater than or equal to 1');
  toolConfig.tools.forEach((tool: unknown, index: number) => {
    const [member, value] = unionMember(tool, `toolConfig.tools.${index}`);
    if (member === 'cachePoint') return;
    if (member !== 'toolSpec' || !isObject(value)) fail(`Malformed input request: toolConfig.tools.${index}.${member} is not a tool`);
    only(value, ['name', 'description', 'inputSchema'], `toolConfig.tools.${index}.toolSpec`);
    if (typeof value.name !== 'string' || !IDENTIFIER.test(value.name))
      fail(`toolConfig.tools.${index}.toolSpec.name failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+`);
    if (value.description !== undefined && (typeof value.description !== 'string' || value.description === ''))
      fail(`toolConfig.tools.${index}.toolSpec.description must be a non-empty string`);
    if (!isObject(value.inputSchema) || !isObject(value.inputSchema.json) || Object.keys(value.inputSchema).length !== 1) {
      fail(`Malformed input request: toolConfig.tools.${index}.toolSpec.inputSchema must be {"json": <JSON schema object>}`);
    }
  });
  if (toolConfig.toolChoice !== undefined) {
    const [member, value] = unionMember(toolConfig.toolChoice, 'toolConfig.toolChoice');
    if (member === 'tool') {
      if (!isObject(value) || typeof value.name !== 'string') fail('Malformed input request: toolConfig.toolChoice.tool.name is required');
    } else if (member !== 'auto' && member !== 'any') fail(`Malformed input request: toolConfig.toolChoice.${member} is not a tool choice`);
  }
}

/** Claude's extended thinking through `additionalModelRequestFields.thinking`. */
function checkThinking(additional: unknown, inference: Json): boolean {
  if (additional === undefined) return false;
  if (!isObject(additional)) fail('Malformed input request: additionalModelRequestFields must be an object');
  const thinking = additional.thinking;
  if (thinking === undefined) return false;
  if (!isObject(thinking) || thinking.type !== 'enabled' || !Number.isInteger(thinking.budget_tokens))
    fail('thinking: expected {"type":"enabled","budget_tokens":<integer>}');
  const budget = thinking.budget_tokens as number;
  if (budget < 1024) fail('thinking.budget_tokens: Input should be greater than or equal to 1024');
  if (typeof inference.maxTokens !== 'number' || inference.maxTokens <= budget) fail('`max_tokens` must be greater than `thinking.budget_tokens`.');
  if (inference.temperature !== undefined && inference.temperature !== 1) fail('`temperature` may only be set to 1 when thinking is enabled.');
  // Claude's rule, as on Anthropic's API: top_p from 0.95 to 1 (the range itself is checked with the inference config).
  if (inference.topP !== undefined && !(typeof inference.topP === 'number' && inference.topP >= 0.95))
    fail('`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.');
  if (additional.top_k !== undefined) fail('`top_k` must be unset when thinking is enabled.');
  return true;
}

function checkBody(body: unknown): void {
  if (!isObject(body)) fail('Malformed input request: the body must be a JSON object');
  for (const key of Object.keys(body))
    if (!TOP_LEVEL.has(key)) fail(`Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`);
  const inference = checkInference(body.inferenceConfig);
  const thinking = checkThinking(body.additionalModelRequestFields, inference);
  const { usesTools } = checkMessages(body.messages, thinking);
  checkSystem(body.system);
  if (body.toolConfig !== undefined) checkToolConfig(body.toolConfig);
  else if (usesTools) fail('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  const paths = body.additionalModelResponseFieldPaths;
  if (paths !== undefined && (!Array.isArray(paths) || paths.some((path) => typeof path !== 'string' || !path.startsWith('/')))) {
    fail('Malformed input request: additionalModelResponseFieldPaths must be JSON pointers such as "/stop_sequence"');
  }
}
