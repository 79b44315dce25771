import type { Channel } from '../../../domain/channel.ts';
import { mintedEntraTokens } from './azure-entra-token.ts';
import { mintedServiceAccountTokens } from './google-service-account-token.ts';

/**
 * Everything an upstream error text must be redacted of for this channel: its secrets and the
 * access tokens minted from them (Azure Entra ID apps, Vertex service accounts), which an
 * upstream may quote back as readily as a key. A channel whose keys are plain keys mints
 * nothing: its own list is returned, with no work.
 */
export function channelSecrets(channel: Pick<Channel, 'apiKeys'>): readonly string[] {
  if (!channel.apiKeys.some(mintsTokens)) return channel.apiKeys;
  const secrets = [...channel.apiKeys];
  for (const secret of channel.apiKeys) {
    if (mintsTokens(secret)) secrets.push(...mintedEntraTokens(secret), ...mintedServiceAccountTokens(secret));
  }
  return secrets;
}

/** Entra apps and service accounts are JSON objects; plain keys never start with a brace. */
function mintsTokens(secret: string): boolean {
  return secret.trimStart().startsWith('{');
}
