import { finished } from 'node:stream/promises';
import type { Caller } from '../access/authenticate-key.ts';
import { GatewayError, invalidRequest } from '../core/gateway-error.ts';
import { encodeErrorReply } from '../protocols/encode-error-reply.ts';
import { ClientWriter } from '../relay/client-writer.ts';
import { inputItems } from '../responses/replay-items.ts';
import { CapturedReply } from './captured-reply.ts';
import type { GenerationRequest } from './generation-request.ts';
import { runGeneration, type GenerationDeps } from './run-generation.ts';
import { isRecord } from '../protocols/shared/is-record.ts';
import { authorizeModel } from '../access/authorize-model.ts';
import type { Channel } from '../domain/channel.ts';
import { compactRequestFields, compactsUpstream, passCompactionThrough } from './pass-compaction-through.ts';

/**
 * What the gateway asks the routed model when it compacts a conversation itself (documented in
 * the README): a hand-off summary another model can continue from, nothing else.
 */
export const COMPACTION_PROMPT = [
  'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary for another LLM that will resume this task.',
  'Include: the current progress and key decisions made; important context, constraints or user preferences; what remains to be done (clear next steps);',
  'any critical data, examples or references (file names, commands, identifiers) needed to continue.',
  'Be concise and structured. Reply with the summary only.',
].join('\n');

export interface CompactionReply {
  status: number;
  body: unknown;
  /** The summary request ran through the pipeline, which wrote its usage row and access line. */
  recorded: boolean;
  /** For `x-switchyard-warnings` (passthrough compaction; the pipeline writes its own otherwise). */
  warnings?: string[];
}

/**
 * `POST /v1/responses/compact` on any upstream. Where every channel of the model speaks OpenAI
 * Responses, the upstream's own endpoint answers (pass-compaction-through.ts). Elsewhere the
 * conversation (`input`, or the chain behind
 * `previous_response_id`) plus the compaction prompt goes through `runGeneration` as one
 * ordinary, non-streamed Responses request (admission, routing, failover, the usage row and the
 * charge all apply), and the model's summary comes back as OpenAI's `response.compaction`
 * object: the conversation's user messages, then one compaction item whose `encrypted_content`
 * is the summary sealed for the caller's key. A later request carrying the item gets the summary
 * in its place (`openCompactionItems`, in the pipeline). `fromTurn`: the body is a
 * `compaction_trigger` turn's create request, not a compact request.
 */
export async function runCompaction(deps: GenerationDeps, request: GenerationRequest & { caller: Caller }, fromTurn = false): Promise<CompactionReply> {
  const seal = deps.compaction;
  const { requestId } = request;
  let recorded = false;
  try {
    if (!seal) throw new GatewayError('route_not_found', 'This gateway does not compact conversations.');
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('The request body must be a JSON object.');
    const fields = body as Record<string, unknown>;
    const upstream = upstreamChannels(deps, request, fields);
    if (upstream !== undefined) {
      recorded = true;
      // A compaction_trigger turn is a response.create: only the compact endpoint's fields go.
      const sent = fromTurn ? compactRequestFields(fields) : fields;
      const passed = await passCompactionThrough({ ...deps, compaction: seal }, request, fields.model as string, upstream, sent);
      return { status: passed.status, body: passed.body, recorded, warnings: passed.warnings };
    }
    const items = inputItems(fields.input);
    if (items.length === 0 && typeof fields.previous_response_id !== 'string') {
      throw invalidRequest('Send the conversation to compact in "input" (or name it with "previous_response_id").', 'input');
    }
    const summaryRequest: Record<string, unknown> = {
      model: fields.model,
      input: [...items, { type: 'message', role: 'user', content: COMPACTION_PROMPT }],
      stream: false,
      store: false,
    };
    if (typeof fields.instructions === 'string') summaryRequest.instructions = fields.instructions;
    if (fields.previous_response_id !== undefined) summaryRequest.previous_response_id = fields.previous_response_id;
    // The history's tool calls need their tools declared on some upstreams (Bedrock Converse
    // refuses toolUse blocks without a toolConfig); the prompt asks for text only.
    if (Array.isArray(fields.tools) && fields.tools.length > 0) summaryRequest.tools = fields.tools;

    const reply = new CapturedReply();
    let takenOver = false;
    recorded = true;
    await runGeneration(
      deps,
      { ...request, body: summaryRequest, rawBody: undefined },
      {
        takeOver(onClientGone) {
          takenOver = true;
          return new ClientWriter(reply, deps.runtime.now, onClientGone);
        },
      },
    );
    if (!takenOver) throw new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.');
    await finished(reply);
    const answer = JSON.parse(reply.text()) as Record<string, unknown>;
    if (reply.status !== 200) return { status: reply.status, body: answer, recorded };
    const summary = outputText(answer.output);
    if (summary === '')
      throw new GatewayError(
        'upstream_invalid_response',
        'The model returned no summary to compact the conversation into; try again or compact with another model.',
      );
    const userMessages = items.filter((item) => isRecord(item) && item.role === 'user' && (item.type === undefined || item.type === 'message'));
    return {
      status: 200,
      recorded,
      body: {
        id: deps.runtime.generateId('resp_'),
        object: 'response.compaction',
        created_at: Math.floor(deps.runtime.now() / 1000),
        output: [...userMessages, { type: 'compaction', id: deps.runtime.generateId('cmp_'), encrypted_content: seal.seal(request.caller.key.id, summary) }],
        usage: answer.usage ?? null,
      },
    };
  } catch (thrown) {
    const error =
      thrown instanceof GatewayError
        ? thrown
        : new GatewayError('internal_error', 'The gateway failed unexpectedly; the failure is logged under this request id.', { cause: thrown });
    const { status, body } = encodeErrorReply('openai-responses', error, requestId);
    return { status, body: JSON.parse(body), recorded };
  }
}

/** The model's channels when they all compact upstream (see compactsUpstream); undefined: the gateway compacts. */
function upstreamChannels(
  deps: GenerationDeps,
  request: GenerationRequest & { caller: Caller },
  body: Record<string, unknown>,
): readonly Channel[] | undefined {
  if (typeof body.model !== 'string' || body.model === '') return undefined;
  let channels: readonly Channel[];
  try {
    channels = authorizeModel(deps.snapshot.current, request.caller, body.model, request.route.surface, {
      revealOtherGroups: deps.settings?.revealOtherGroupModels === true,
    });
  } catch {
    // The pipeline refuses it in its words, with its usage row.
    return undefined;
  }
  return compactsUpstream(channels, body) ? channels : undefined;
}

function outputText(output: unknown): string {
  if (!Array.isArray(output)) return '';
  let text = '';
  for (const item of output) {
    if (!isRecord(item) || item.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (isRecord(part) && typeof part.text === 'string') text += part.text;
  }
  return text.trim();
}
