/**
 * Pre-serialised replies of the bench upstream, per dialect and profile, so that the upstream
 * spends almost nothing per request and its own ceiling stays far above a gateway's.
 *
 * A profile is named by the last `-` segment of the model (`oa-s0` → `s0`), so the gateway's
 * routing (model → channel) and the upstream's behaviour are chosen by the same name.
 */
export type Dialect = 'openai' | 'anthropic' | 'gemini';

export interface Profile {
  /** Bytes of the non-streamed reply body (about). */
  replyBytes: number;
  /** Wait before answering (non-streamed) or before the first frame (streamed). */
  delayMs: number;
  /** Streamed: number of text deltas and the pause between them (0 = written back to back). */
  deltas: number;
  gapMs: number;
}

export const PROFILES: Record<string, Profile> = {
  s0: { replyBytes: 1_400, delayMs: 0, deltas: 200, gapMs: 0 },
  s20: { replyBytes: 1_400, delayMs: 20, deltas: 200, gapMs: 0 },
  l0: { replyBytes: 10_000, delayMs: 0, deltas: 200, gapMs: 0 },
  // Streaming profiles of the issue: A (64 × 20 ms), B (200, no delay), C (2 per second for 60 s).
  sa: { replyBytes: 1_400, delayMs: 0, deltas: 64, gapMs: 20 },
  sb: { replyBytes: 1_400, delayMs: 0, deltas: 200, gapMs: 0 },
  sc: { replyBytes: 1_400, delayMs: 0, deltas: 120, gapMs: 500 },
  // A short profile A for the smoke run (8 × 20 ms): same code paths, a fraction of the time.
  st: { replyBytes: 1_400, delayMs: 0, deltas: 8, gapMs: 20 },
  // Time to first event (F): the first delta alone, the next two 5 ms apart. With B the
  // client's first read holds all 200 deltas (the upstream's burst and the client share a
  // core), so B's "first event" is the time to forward the whole burst.
  sf: { replyBytes: 1_400, delayMs: 0, deltas: 3, gapMs: 5 },
};

/** Every delta carries exactly one `~`, so a client counts delivered deltas in any dialect. */
export const DELTA_MARKER = 0x7e;

export function profileOf(model: string): Profile {
  const name = model.slice(model.lastIndexOf('-') + 1);
  return PROFILES[name] ?? (PROFILES.s0 as Profile);
}

const CREATED = 1_700_000_000;
const INPUT_TOKENS = 42;

function deltaText(index: number): string {
  return ` tok~${String(index).padStart(3, '0')}`;
}

/** Text that makes the whole reply about `replyBytes` long (the envelope is ~300 B). */
function replyText(profile: Profile): string {
  const words = Math.max(1, Math.round((profile.replyBytes - 320) / 6));
  return 'lorem '.repeat(words).trimEnd();
}

export function replyBody(dialect: Dialect, model: string): string {
  const profile = profileOf(model);
  const text = replyText(profile);
  const output = Math.ceil(text.length / 4);
  switch (dialect) {
    case 'openai':
      return JSON.stringify({
        id: 'chatcmpl-bench0000000000000000000001',
        object: 'chat.completion',
        created: CREATED,
        model,
        choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: INPUT_TOKENS, completion_tokens: output, total_tokens: INPUT_TOKENS + output },
        system_fingerprint: 'fp_bench',
      });
    case 'anthropic':
      return JSON.stringify({
        id: 'msg_bench000000000000000001',
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: INPUT_TOKENS, output_tokens: output },
      });
    case 'gemini':
      return JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: INPUT_TOKENS, candidatesTokenCount: output, totalTokenCount: INPUT_TOKENS + output },
        modelVersion: model,
        responseId: 'bench-response-1',
      });
    default: {
      const unreachable: never = dialect;
      return unreachable;
    }
  }
}

/** A streamed reply as frames: `head` (sent at once), one frame per delta, `tail` (after the last delta). */
export interface StreamFrames {
  head: string;
  deltas: string[];
  tail: string;
}

export function streamFrames(dialect: Dialect, model: string, geminiJsonArray = false): StreamFrames {
  const { deltas: count } = profileOf(model);
  const texts = Array.from({ length: count }, (_, index) => deltaText(index));
  const output = count * 2;
  switch (dialect) {
    case 'openai': {
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-bench0000000000000000000001', object: 'chat.completion.chunk', created: CREATED, model, system_fingerprint: 'fp_bench', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
      const usage = `data: ${JSON.stringify({ id: 'chatcmpl-bench0000000000000000000001', object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: { prompt_tokens: INPUT_TOKENS, completion_tokens: output, total_tokens: INPUT_TOKENS + output } })}\n\n`;
      return {
        head: chunk({ role: 'assistant', content: '', refusal: null }, null),
        deltas: texts.map((text) => chunk({ content: text }, null)),
        tail: `${chunk({}, 'stop')}${usage}data: [DONE]\n\n`,
      };
    }
    case 'anthropic': {
      const event = (name: string, data: object) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
      return {
        head:
          event('message_start', {
            message: {
              id: 'msg_bench000000000000000001',
              type: 'message',
              role: 'assistant',
              model,
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: INPUT_TOKENS, output_tokens: 1 },
            },
          }) + event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
        deltas: texts.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })),
        tail:
          event('content_block_stop', { index: 0 }) +
          event('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: output } }) +
          event('message_stop', {}),
      };
    }
    case 'gemini': {
      const part = (text: string, last: boolean) =>
        JSON.stringify({
          candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
          ...(last ? { usageMetadata: { promptTokenCount: INPUT_TOKENS, candidatesTokenCount: output, totalTokenCount: INPUT_TOKENS + output } } : {}),
          modelVersion: model,
        });
      if (geminiJsonArray) {
        return { head: '[', deltas: texts.map((text, index) => `${index === 0 ? '' : ',\r\n'}${part(text, false)}`), tail: `,\r\n${part('', true)}]` };
      }
      return { head: '', deltas: texts.map((text) => `data: ${part(text, false)}\r\n\r\n`), tail: `data: ${part('', true)}\r\n\r\n` };
    }
    default: {
      const unreachable: never = dialect;
      return unreachable;
    }
  }
}
