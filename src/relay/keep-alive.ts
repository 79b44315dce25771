import type { ProtocolId } from '../protocols/protocol-codec.ts';

/**
 * What to send a client during a long upstream silence so proxies and clients do not give up:
 * Anthropic has a `ping` event; OpenAI's SSE readers ignore comment lines. Gemini's SDK treats
 * any non-data segment as broken JSON, so it gets nothing.
 */
export function keepAliveFrame(protocol: ProtocolId): string | undefined {
  switch (protocol) {
    case 'anthropic-messages':
      return 'event: ping\ndata: {"type": "ping"}\n\n';
    case 'openai-chat':
    case 'openai-responses':
      return ': keep-alive\n\n';
    case 'gemini-generate-content':
      return undefined;
    default: {
      const unreachable: never = protocol;
      return unreachable;
    }
  }
}
