import { getChannelAdapter } from './channels/channel-registry.ts';
import type { MediaOperation } from './channels/channel-adapter.ts';
import { channelSecrets } from './channels/auth/channel-secrets.ts';
import { GatewayError, isGatewayError } from '../core/gateway-error.ts';
import type { Channel } from '../domain/channel.ts';
import type { UsageAttempt } from '../domain/usage-log-entry.ts';
import { getCodec } from '../protocols/codec-registry.ts';
import type { Lease } from './routing/channel-health.ts';
import type { MultipartUpload } from '../core/multipart-upload.ts';
import { encodeMultipart } from './channels/multipart-body.ts';
import { toGatewayError, type UpstreamResponse } from './channels/upstream-client.ts';
import { classifyAttemptFailure, type AttemptOutcome } from './classify-attempt-failure.ts';
import { readUpstreamError } from './read-upstream-error.ts';
import type { RelayDeps } from './relay-deps.ts';
import { withRelayDeadline } from './with-relay-deadline.ts';
import { tryChannelsInOrder } from './try-channels-in-order.ts';
import { resolveUpstreamModel } from './channels/resolve-upstream-model.ts';
import type { MediaWire } from '../core/image-result.ts';

export interface MediaRelayInput {
  operation: MediaOperation;
  /** The client's body, already checked by its codec; `model` is rewritten per channel. */
  body: Record<string, unknown>;
  /** A multipart upload sent instead of `body` (its `model` field rewritten per channel). */
  upload?: MultipartUpload;
  /** `stream`: a successful reply's bytes are handed over unread (speech audio), not parsed. */
  reply?: 'whole' | 'stream';
  /**
   * The body for a channel whose upstream model speaks `wire` (Gemini's or Imagen's for images),
   * or undefined when this request cannot be carried in it (that channel is skipped). Absent:
   * only OpenAI's wire, with `body`.
   */
  bodyFor?(wire: MediaWire, upstreamModel: string): Record<string, unknown> | undefined;
  /** Why a channel that serves the operation could not carry this request (named when none could). */
  uncarriedReason?: string;
  publicModel: string;
  /** Candidate channels in attempt order (kinds that do not serve the operation are skipped). */
  channels: readonly Channel[];
  signal: AbortSignal;
}

export interface MediaRelayResult {
  status: number;
  error: GatewayError | undefined;
  channel: Channel | undefined;
  upstreamModel: string | undefined;
  /** The upstream's JSON reply, as it sent it. */
  result: Record<string, unknown> | undefined;
  /** The wire the answering channel spoke (its JSON is in that wire's shape). */
  wire?: MediaWire;
  /** A reply that is not a JSON object (a transcript as text, subtitles, speech audio). */
  other?: MediaBytes;
  attempts: UsageAttempt[];
}

/** A successful reply that is not JSON: its type and its bytes, whole (`text`) or as they arrive. */
export type MediaBytes =
  | { contentType: string; text: string; stream?: undefined }
  | { contentType: string; text?: undefined; stream: AsyncIterable<Uint8Array> };

type Reply = { json: Record<string, unknown>; wire: MediaWire } | { bytes: MediaBytes };
type Outcome = { kind: 'ok'; result: Reply } | AttemptOutcome;

/** A text reply (a transcript as `text`, `srt` or `vtt`) is read whole up to this bound. */
const MAX_TEXT_REPLY_BYTES = 8 * 1024 * 1024;

/**
 * A whole-reply media request (an image generation) over the same channels, health and failover
 * rules as generation: try the channels in order, skip open circuits, move on after a failure
 * worth retrying, report each attempt to channel health. Only the attempt that answered is
 * returned, so only it is billed: a failed-over request costs one reply.
 */
export async function relayMedia(deps: RelayDeps, input: MediaRelayInput): Promise<MediaRelayResult> {
  return withRelayDeadline(deps, input.signal, (signal) => relayAttempts(deps, input, signal));
}

async function relayAttempts(deps: RelayDeps, input: MediaRelayInput, signal: AbortSignal): Promise<MediaRelayResult> {
  const attempts: UsageAttempt[] = [];
  const finish = (partial: Partial<MediaRelayResult> & Pick<MediaRelayResult, 'status' | 'error'>): MediaRelayResult => ({
    channel: undefined,
    upstreamModel: undefined,
    result: undefined,
    attempts,
    ...partial,
  });
  const serving = input.channels.filter((channel) => getChannelAdapter(channel.provider).media?.operations.includes(input.operation) === true);
  const capable = serving.filter((channel) => bodyForChannel(channel, input) !== undefined);
  if (serving.length > 0 && capable.length === 0) {
    const kinds = [...new Set(serving.map((channel) => channel.provider))].join(', ');
    const error = new GatewayError(
      'invalid_request',
      `Model "${input.publicModel}" is served here only by ${kinds} channels, which cannot carry this /v1/${input.operation} request${input.uncarriedReason === undefined ? '' : ` (${input.uncarriedReason})`}.`,
      { param: 'model' },
    );
    return finish({ status: error.status, error });
  }
  if (capable.length === 0) {
    const kinds = [...new Set(input.channels.map((channel) => channel.provider))].join(', ');
    const error = new GatewayError(
      'invalid_request',
      `Model "${input.publicModel}" is served only by ${kinds} channels, which have no /v1/${input.operation} endpoint.`,
      { param: 'model' },
    );
    return finish({ status: error.status, error });
  }
  const tried = await tryChannelsInOrder(
    deps,
    { publicModel: input.publicModel, channels: capable, clientSignal: input.signal, signal, what: `/v1/${input.operation}` },
    ({ channel, lease, upstreamModel, attempt }) => callChannel(deps, channel, lease, upstreamModel, attempt, input, signal),
  );
  const reply = tried.result;
  return {
    ...tried,
    result: reply !== undefined && 'json' in reply ? reply.json : undefined,
    ...(reply !== undefined && 'json' in reply ? { wire: reply.wire } : {}),
    ...(reply !== undefined && 'bytes' in reply ? { other: reply.bytes } : {}),
  };
}

async function callChannel(
  deps: RelayDeps,
  channel: Channel,
  lease: Lease,
  upstreamModel: string,
  attempt: UsageAttempt,
  input: MediaRelayInput,
  signal: AbortSignal,
): Promise<Outcome> {
  const wire = wireOf(channel, upstreamModel);
  const body = JSON.stringify(bodyForChannel(channel, input, upstreamModel) ?? { ...input.body, model: upstreamModel });
  let status: number | null = null;
  let error: GatewayError;
  try {
    const target = await getChannelAdapter(channel.provider).media!.buildRequest({ channel, apiKey: lease.apiKey, upstreamModel, operation: input.operation });
    const multipart = input.upload === undefined ? undefined : encodeMultipart(input.upload, { model: upstreamModel });
    const response = await deps.upstream.send({
      url: target.url,
      headers: target.headers,
      body: target.body ?? body,
      ...(multipart === undefined ? {} : { multipart }),
      signal,
    });
    status = response.statusCode;
    if (response.statusCode >= 400) {
      const errorCodec = getCodec(wire === 'openai' ? 'openai-chat' : 'gemini-generate-content');
      error = await readUpstreamError(response, errorCodec, channelSecrets(channel), getChannelAdapter(channel.provider));
    } else {
      const reply = await readReply(response, input, wire);
      if (reply !== undefined) return { kind: 'ok', result: reply };
      error = new GatewayError('upstream_invalid_response', `The upstream sent a /v1/${input.operation} reply that could not be read.`);
    }
  } catch (thrown) {
    error = isGatewayError(thrown) ? thrown : toGatewayError(thrown);
    if (error.status === 401) status = 401;
  }
  attempt.status = status;
  return classifyAttemptFailure(deps, channel, lease, error, status, signal, false, `/v1/${input.operation}`);
}

function wireOf(channel: Channel, upstreamModel: string): MediaWire {
  return getChannelAdapter(channel.provider).media?.wire?.(upstreamModel) ?? 'openai';
}

/**
 * The body a channel is sent: OpenAI's as the client's codec left it (undefined here, the caller
 * adds the model), or the request in the channel's own wire. Undefined as well when the channel
 * cannot carry it (checked before any attempt, so such a channel is never tried).
 */
function bodyForChannel(channel: Channel, input: MediaRelayInput, upstreamModel?: string): Record<string, unknown> | undefined {
  let model = upstreamModel;
  try {
    model ??= resolveUpstreamModel(channel, input.publicModel);
  } catch {
    // A model map cycle: let the attempt report it.
    return input.body;
  }
  const wire = wireOf(channel, model);
  if (input.bodyFor !== undefined) return input.upload !== undefined && wire !== 'openai' ? undefined : input.bodyFor(wire, model);
  return wire === 'openai' ? { ...input.body, model } : undefined;
}

/**
 * A JSON reply parsed; speech audio handed over as it arrives (the caller streams it to the
 * client); any other type (a transcript as text or subtitles) read whole, bounded.
 */
async function readReply(response: UpstreamResponse, input: MediaRelayInput, wire: MediaWire): Promise<Reply | undefined> {
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
  if (input.reply === 'stream' && !contentType.includes('json')) return { bytes: { contentType, stream: response.body } };
  if (contentType.includes('json')) {
    const parsed: unknown = await response.body.json().catch(() => undefined);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? { json: parsed as Record<string, unknown>, wire } : undefined;
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length > MAX_TEXT_REPLY_BYTES) {
      response.body.destroy();
      return undefined;
    }
  }
  return { bytes: { contentType, text: Buffer.concat(chunks).toString('utf8') } };
}
