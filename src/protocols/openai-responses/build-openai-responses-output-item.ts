export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export interface OutputTextPart {
  type: 'output_text';
  annotations: [];
  logprobs: [];
  text: string;
}

export interface MessageItem {
  id: string;
  type: 'message';
  status: ItemStatus;
  content: OutputTextPart[];
  role: 'assistant';
}

export interface FunctionCallItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  arguments: string;
  call_id: string;
  name: string;
}

export interface ReasoningItem {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
}

export interface CustomToolCallItem {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  name: string;
  input: string;
}

export type OutputItem = MessageItem | FunctionCallItem | CustomToolCallItem | ReasoningItem;

export function outputTextPart(text: string): OutputTextPart {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function buildMessageItem(id: string, text: string | undefined, status: ItemStatus): MessageItem {
  return { id, type: 'message', status, content: text === undefined ? [] : [outputTextPart(text)], role: 'assistant' };
}

export function buildFunctionCallItem(id: string, call: { callId: string; name: string; arguments: string }, status: ItemStatus): FunctionCallItem {
  return { id, type: 'function_call', status, arguments: call.arguments, call_id: call.callId, name: call.name };
}

export function buildCustomToolCallItem(id: string, call: { callId: string; name: string; input: string }, status: ItemStatus): CustomToolCallItem {
  return { id, type: 'custom_tool_call', status, call_id: call.callId, name: call.name, input: call.input };
}

export function buildReasoningItem(id: string, text: string | undefined, encryptedContent?: string): ReasoningItem {
  const item: ReasoningItem = {
    id,
    type: 'reasoning',
    summary: text === undefined || text === '' ? [] : [{ type: 'summary_text', text }],
  };
  if (encryptedContent !== undefined) item.encrypted_content = encryptedContent;
  return item;
}
