import type { Logger } from 'pino';
import type { Channel } from '../domain/channel.ts';
import type { AffinityHint, ClientRequestInput } from '../protocols/protocol-codec.ts';
import type { RelayResult } from '../relay/relay-chat.ts';
import type { RelayCommit } from '../relay/relay-input.ts';
import { preferChannel, type ConversationAffinity } from '../relay/routing/conversation-affinity.ts';

export interface AffinityTurnInput {
  /** The client's request as it came (before any stateful replay rewrote it). */
  request: ClientRequestInput;
  /** The API key id: entries are never shared between keys. */
  scope: string;
  model: string;
  /** The candidate channels in attempt order. */
  channels: Channel[];
  logger: Logger;
  requestId: string;
}

/** One request's affinity: the reordered channels and key for the relay, and what to record after. */
export interface AffinityTurnStep {
  channels: Channel[];
  preferredKey?: { channelId: string; keyIndex: number };
  onCommit(commit: RelayCommit): void;
  /** Records the channel and key that served the turn (not awaited: the reply is already out). */
  settle(result: RelayResult, responseId: string | undefined): void;
}

/**
 * Conversation affinity for one request, whose conversation the codec named (`hint`): the previous turn's
 * channel goes first in its priority tier and its upstream key is preferred; once served, the
 * channel and key that answered (the same, or whichever failover chose) are recorded. A kv that
 * cannot answer costs the request nothing but the preference.
 */
export async function openAffinityTurn(affinity: ConversationAffinity, hint: AffinityHint, input: AffinityTurnInput): Promise<AffinityTurnStep | undefined> {
  const turn = affinity.plan(input.scope, input.model, hint);
  let channels = input.channels;
  let preferredKey: AffinityTurnStep['preferredKey'];
  try {
    const found = await affinity.find(turn, input.channels);
    if (found) {
      channels = preferChannel(input.channels, found.channel);
      if (found.keyIndex !== undefined) preferredKey = { channelId: found.channel.id, keyIndex: found.keyIndex };
    }
  } catch (error) {
    input.logger.debug({ err: error, requestId: input.requestId }, 'conversation affinity lookup failed; routing without it');
  }
  let committed: RelayCommit | undefined;
  return {
    channels,
    ...(preferredKey === undefined ? {} : { preferredKey }),
    onCommit(commit) {
      committed = commit;
    },
    settle(result, responseId) {
      if (!committed || result.status !== 200 || result.channel?.id !== committed.channel.id) return;
      const served = { channelId: committed.channel.id, keyIndex: committed.keyIndex, apiKey: committed.apiKey };
      affinity.remember(turn, served, responseId).catch((error: unknown) => {
        input.logger.debug({ err: error, requestId: input.requestId }, 'conversation affinity could not be recorded');
      });
    },
  };
}
