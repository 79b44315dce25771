import { eventFrame, exceptionFrame } from './bedrock-converse-dialect.ts';
import type { Dialect } from './dialect.ts';

/**
 * Bedrock's InvokeModelWithResponseStream for Claude: Anthropic's own stream events, each one's
 * JSON base64-encoded as the `bytes` of an event-stream `chunk` frame (Anthropic's `ping` is not
 * sent; the last chunk carries Bedrock's invocation metrics). Plain replies are Anthropic's body.
 */
export function bedrockInvokeDialect(inner: Dialect): Dialect {
  return {
    renderBody: (plan) => inner.renderBody(plan),
    renderStream(plan, options) {
      const frames: string[] = [];
      for (const frame of inner.renderStream(plan, options).frames) {
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (data === undefined) continue;
        const event = JSON.parse(data) as Record<string, unknown>;
        if (event.type === 'ping') continue;
        if (event.type === 'message_stop') {
          event['amazon-bedrock-invocationMetrics'] = {
            inputTokenCount: plan.usage.input,
            outputTokenCount: plan.usage.output,
            invocationLatency: 120,
            firstByteLatency: 40,
          };
        }
        frames.push(eventFrame('chunk', { bytes: Buffer.from(JSON.stringify(event), 'utf8').toString('base64') }));
      }
      return { contentType: 'application/vnd.amazon.eventstream', frames, binary: true };
    },
    renderStreamError: () => exceptionFrame('modelStreamErrorException', 'The model stream was interrupted.'),
  };
}
