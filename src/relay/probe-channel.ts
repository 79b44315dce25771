import type { ChatRequest } from '../core/chat-request.ts';
import { GatewayError } from '../core/gateway-error.ts';
import { getChannelAdapter } from './channels/channel-registry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import { classifyFailure, withMisconfiguredHint } from './routing/classify-failure.ts';
import { resolveUpstreamModel } from './channels/resolve-upstream-model.ts';
import type { Channel } from '../domain/channel.ts';
import { toGatewayError } from './channels/upstream-client.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import { channelSecrets } from './channels/auth/channel-secrets.ts';

export interface ProbeResult {
  ok: boolean;
  model: string;
  status: number | null;
  latencyMs: number;
  error: { code: string; message: string } | null;
}

/**
 * Sends the smallest real request a channel can answer (a one-word prompt, a few output
 * tokens) through the channel's own protocol, and reports the outcome to its health: the
 * console's "test" button and the background health check both use it.
 */
export async function probeChannel(deps: RelayDeps, channel: Channel, model = channel.models[0] ?? ''): Promise<ProbeResult> {
  const startedAt = deps.runtime.now();
  const adapter = getChannelAdapter(channel.provider);
  // The probe speaks the protocol the channel uses for this model (Vertex: Gemini or Claude).
  const protocol = adapter.selectProtocol(channel, 'openai-chat', resolveProbeModel(channel, model));
  const codec = getCodec(protocol);
  const apiKeyIndex = 0;
  const lease = { keyIndex: apiKeyIndex, apiKey: channel.apiKeys[apiKeyIndex] ?? '', model };
  const finish = (status: number | null, error?: GatewayError): ProbeResult => {
    const now = deps.runtime.now();
    if (error) {
      const lastError = { at: now, status, code: error.code, message: error.message };
      // The probe's request is the gateway's own, so even a 4xx counts; a refused credential takes the key out.
      const { failureClass, scope } = classifyFailure(error, status, deps.retryStatuses);
      if (failureClass === 'broken') deps.health.recordBroken(channel, lease, lastError);
      else if (failureClass === 'misconfigured') deps.health.recordFailure(channel, lease, withMisconfiguredHint(lastError), scope);
      else deps.health.recordFailure(channel, lease, lastError, scope);
    } else deps.health.recordSuccess(channel, lease, now - startedAt);
    return {
      ok: !error,
      model,
      status,
      latencyMs: now - startedAt,
      error: error ? { code: error.code, message: error.message } : null,
    };
  };

  try {
    const upstreamModel = resolveUpstreamModel(channel, model);
    const request: ChatRequest = {
      model: upstreamModel,
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'ping' }] }],
      tools: [],
      maxOutputTokens: 16,
      stream: false,
    };
    const body = JSON.stringify(codec.encodeRequest(request, deps.runtime).value.body);
    const target = await adapter.buildRequest({ channel, apiKey: lease.apiKey, protocol, upstreamModel, stream: false, forwardedHeaders: {}, body });
    const response = await deps.upstream.send({
      url: target.url,
      headers: target.headers,
      body: target.body ?? body,
      signal: AbortSignal.timeout(Math.min(deps.totalTimeoutMs, 30_000)),
    });
    if (response.statusCode >= 400) return finish(response.statusCode, await readUpstreamError(response, codec, channelSecrets(channel), adapter));
    codec.decodeResponse(await response.body.json(), deps.runtime);
    return finish(response.statusCode);
  } catch (error) {
    return finish(null, error instanceof GatewayError ? error : toGatewayError(error));
  }
}

function resolveProbeModel(channel: Channel, model: string): string {
  try {
    return resolveUpstreamModel(channel, model);
  } catch {
    return model;
  }
}
