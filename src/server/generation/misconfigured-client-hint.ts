import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../../core/gateway-error.ts';
import type { ProtocolId } from '../../protocols/protocol-codec.ts';
import { CLIENT_KINDS, clientAddress, clientLabel, type ClientKind } from '../../domain/client-kinds.ts';

export interface RouteMiss {
  protocol: ProtocolId;
  error: GatewayError;
}

/**
 * A request for a path the gateway does not serve usually means a client was given the wrong
 * base address. Recognise the common mistakes (specification §7 and its base-address table)
 * and answer with a 404 that says exactly which address to enter, in the client's own shape.
 * The addresses are spelled out from the request's own Host, so they can be pasted as they are,
 * and come from the client-kinds table (src/domain/client-kinds.ts) that the console and
 * /api/diagnose teach, so the three never disagree.
 */
export function explainRouteMiss(method: string, url: string, altPrefix: string, headers: IncomingHttpHeaders = {}): RouteMiss {
  const fullPath = url.split('?')[0] ?? url;
  const prefixMatch = fullPath.startsWith(`/${altPrefix}/`) || fullPath === `/${altPrefix}`;
  // The same mistakes happen under the alternative-client prefix; its root is <root>/<prefix>.
  const path = prefixMatch ? fullPath.slice(altPrefix.length + 1) || '/' : fullPath;
  const root = `${origin(headers)}${prefixMatch ? `/${altPrefix}` : ''}`;
  const miss = (protocol: ProtocolId, message: string): RouteMiss => ({ protocol, error: new GatewayError('route_not_found', message) });
  // What to enter for a client kind; `root` already carries the alternative prefix when the request did.
  const address = (kind: ClientKind) => clientAddress(kind, root, altPrefix);

  if (/\/v1beta\/v1beta(\/|$)/.test(path) || /^\/v1beta\/v1\//.test(path)) {
    return miss(
      'gemini-generate-content',
      `The Gemini client was given an address that already ends in /v1beta, so /v1beta was added twice (${fullPath}). For the Gemini CLI (GOOGLE_GEMINI_BASE_URL) and the @google/genai SDK, configure the root address ${address('gemini-cli')} instead, without /v1beta.`,
    );
  }
  if (/^\/v1\/v1beta(\/|$)/.test(path) || /^\/(v1\/)?models\/[^/]+:[A-Za-z]+$/.test(path) || (/^\/(v1\/)?models$/.test(path) && isGeminiClient(headers))) {
    return miss(
      'gemini-generate-content',
      `Gemini-style requests live under /v1beta (this one asked for ${fullPath}). For a Gemini provider in another tool, or raw HTTP, configure the base address ${address('gemini-http')} and append the endpoint path (for example /models); for the Gemini CLI and the @google/genai SDK, configure the root address ${address('genai-sdk')}.`,
    );
  }
  if (/^\/v1\/v1\/messages(\/|$)/.test(path) || /^\/v1\/messages\/v1\//.test(path) || (/^\/v1\/v1\/models$/.test(path) && isAnthropicClient(headers))) {
    return miss(
      'anthropic-messages',
      `The Anthropic-style client (Claude Code, the Anthropic SDK) was given an address with /v1 or an endpoint in it, so the path doubled (${fullPath}). Configure the root address ${address('claude-code')} (ANTHROPIC_BASE_URL), without /v1; the client adds /v1/messages itself.`,
    );
  }
  if (/^\/v1\/(chat\/completions|responses|models)\/(chat\/completions|responses|models|completions|embeddings)$/.test(path) || /^\/v1\/v1\//.test(path)) {
    return miss(
      'openai-chat',
      `The client was given an address that already ends in an endpoint or in /v1, and appended its own path to it (${fullPath}). For OpenAI SDKs, Codex and similar clients, configure the base address ${address('openai-sdk')} (not ${root}/v1/chat/completions or ${root}/v1/models); for raw HTTP, POST to ${address('openai-http')}.`,
    );
  }
  if (/^\/(chat\/completions|responses|completions|embeddings|models)$/.test(path)) {
    return miss(
      'openai-chat',
      `There is no ${fullPath} here: the address is missing /v1. For OpenAI SDKs, Codex and similar clients, configure the base address ${address('openai-sdk')}; for raw HTTP, use ${root}/v1${path}.`,
    );
  }
  if (/^\/messages(\/count_tokens)?$/.test(path)) {
    return miss(
      'anthropic-messages',
      `There is no ${fullPath} here: Anthropic-style requests go to /v1/messages. Configure Claude Code or the Anthropic SDK with the root address ${address('anthropic-sdk')} (without /v1); they add /v1/messages themselves.`,
    );
  }
  const untranslated =
    /^\/v1\/(images|audio|moderations|completions|files|uploads|batches|fine_tuning|assistants|threads|vector_stores|realtime|videos)(\/|$)/.exec(path);
  if (untranslated) {
    // The served media routes (images, audio, moderations) never reach this hint: their routes match
    // first. The rest is not passed through: each would need its own billing unit (files held,
    // batches, fine-tuning) and its own refusal rules before the gateway could meter and limit it.
    return miss(
      'openai-chat',
      `${method} ${fullPath} is not served: this gateway translates and meters chat, embeddings, images, audio, moderation and rerank only, and does not pass the rest of the OpenAI ${untranslated[1]} API through to upstreams. Supported: POST ${root}/v1/chat/completions, ${root}/v1/responses, ${root}/v1/embeddings, ${root}/v1/images/generations, ${root}/v1/images/edits, ${root}/v1/audio/speech, ${root}/v1/audio/transcriptions, ${root}/v1/audio/translations, ${root}/v1/moderations, ${root}/v1/rerank, ${root}/v1/messages (+ /count_tokens), GET ${root}/v1/models, and the Gemini methods :generateContent, :streamGenerateContent, :countTokens, :embedContent and :batchEmbedContents under ${root}/v1beta/models/{model}.`,
    );
  }
  const postOnly = /^\/v1\/(chat\/completions|responses|embeddings|messages(\/count_tokens)?)$/.exec(path);
  if (postOnly && method !== 'POST') {
    return miss(
      path.startsWith('/v1/messages') ? 'anthropic-messages' : 'openai-chat',
      `${fullPath} takes POST with a JSON body, not ${method}. To list the models your key can use, GET ${root}/v1/models.`,
    );
  }

  const protocol: ProtocolId =
    isGeminiClient(headers) || path.includes('v1beta') ? 'gemini-generate-content' : isAnthropicClient(headers) ? 'anthropic-messages' : 'openai-chat';
  const base = origin(headers);
  const addresses = CLIENT_KINDS.map((kind) => `${clientLabel(kind)}: ${clientAddress(kind, base, altPrefix)}`).join('; ');
  return miss(
    protocol,
    `No endpoint at ${method} ${fullPath}. This gateway serves: OpenAI chat completions, responses, embeddings and models at ${base}/v1/chat/completions, ${base}/v1/responses, ${base}/v1/embeddings and ${base}/v1/models; Anthropic messages at ${base}/v1/messages; Gemini at ${base}/v1beta/models and ${base}/v1beta/models/{model}:generateContent (also :streamGenerateContent, :countTokens, :embedContent, :batchEmbedContents); and the same under ${base}/${altPrefix}/ for alternative clients. The address to configure, per client: ${addresses}.`,
  );
}

function isGeminiClient(headers: IncomingHttpHeaders): boolean {
  return headers['x-goog-api-key'] !== undefined || headers['x-goog-api-client'] !== undefined;
}

function isAnthropicClient(headers: IncomingHttpHeaders): boolean {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
}

/** `http://host:port` as the client reached us, for messages the user can paste from. */
function origin(headers: IncomingHttpHeaders): string {
  const host = typeof headers.host === 'string' && /^[A-Za-z0-9.\-:[\]]+$/.test(headers.host) ? headers.host : '<gateway address>';
  const forwarded = headers['x-forwarded-proto'];
  const scheme = forwarded === 'https' ? 'https' : 'http';
  return `${scheme}://${host}`;
}
