import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCompactionIssuer } from './responses-compact-dialect.ts';

const ids = { responseId: 'resp_sim1', createdSeconds: 1_700_000_000 };

test('the simulated /v1/responses/compact refuses what OpenAI refuses and only honours items it issued', () => {
  const issuer = createCompactionIssuer();
  const refused = (body: unknown) => issuer.answer(body, {}, ids).body as { error: { message: string; param: string | null; code: string | null } };
  assert.equal(refused({ input: 'hi' }).error.code, 'missing_required_parameter');
  assert.equal(refused({ model: 'gpt-5', input: 'hi', stream: true }).error.message, "Unknown parameter: 'stream'.");
  assert.equal(refused({ model: 'gpt-5', input: 'hi', store: false }).error.param, 'store');
  assert.equal(refused({ model: 'gpt-5', input: 42 }).error.code, 'invalid_type');
  assert.equal(refused({ model: 'gpt-5', input: [] }).error.param, 'input');
  const forged = { model: 'gpt-5', input: [{ type: 'compaction', encrypted_content: 'gAAAAABforged' }] };
  assert.equal(refused(forged).error.code, 'invalid_encrypted_content');

  const good = issuer.answer(
    {
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
      tools: [],
      parallel_tool_calls: false,
      reasoning: { effort: 'low' },
    },
    { usage: { input: 9, output: 3 } },
    ids,
  );
  assert.equal(good.status, 200);
  const body = good.body as { object: string; output: Array<Record<string, unknown>>; usage: { input_tokens: number; output_tokens: number } };
  assert.equal(body.object, 'response.compaction');
  assert.deepEqual(body.output.slice(0, -1), [{ role: 'user', content: 'a' }], 'the user messages, then the item');
  const item = body.output.at(-1) as { type: string; encrypted_content: string };
  assert.equal(item.type, 'compaction');
  assert.deepEqual([body.usage.input_tokens, body.usage.output_tokens], [9, 3]);
  assert.equal(issuer.check({ input: [item] }), undefined, 'its own item is accepted back');
  assert.equal(issuer.check({ input: [{ ...item, encrypted_content: `${item.encrypted_content}x` }] })?.status, 400);
  assert.equal(createCompactionIssuer().check({ input: [item] })?.status, 400, "another organisation's item");
});
