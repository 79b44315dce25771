import { GatewayError } from '../core/gateway-error.ts';
import type { ApiKey } from '../domain/api-key.ts';
import { createIpMatcher } from './ip-matcher.ts';

/** Allow-lists are a handful of entries; parsing them per request costs microseconds. */
export function isIpAllowed(key: ApiKey, clientIp: string): boolean {
  return key.allowedIps === null || createIpMatcher(key.allowedIps)(clientIp);
}

/** The key's IP fence: 403 `ip_not_allowed`, naming the address the gateway saw. */
export function checkIpAllowed(key: ApiKey, clientIp: string): void {
  if (isIpAllowed(key, clientIp)) return;
  throw new GatewayError(
    'ip_not_allowed',
    `This API key may not be used from ${clientIp || 'an unknown address'}; it is limited to certain IP addresses. Call from an allowed address, or ask the operator to add this one to the key's IP allow-list.`,
  );
}
