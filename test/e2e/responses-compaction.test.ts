import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startHarness, type Harness } from '../helpers/gateway-harness.ts';
import { outputText, SdkResponsesSocket } from '../helpers/responses-socket.ts';

type Json = Record<string, any>;

const BEDROCK_KEY = 'bedrock-api-key-for-tests';
const UPSTREAMS = [
  { name: 'openai', model: 'cmp-openai', channel: { provider: 'openai', supportsResponses: true, modelMap: { 'cmp-openai': 'gpt-5' } } },
  { name: 'anthropic', model: 'cmp-anthropic', channel: { provider: 'anthropic', modelMap: { 'cmp-anthropic': 'claude-sonnet-4-6' } } },
  { name: 'gemini', model: 'cmp-gemini', channel: { provider: 'gemini', modelMap: { 'cmp-gemini': 'gemini-2.5-flash' } } },
  {
    name: 'bedrock',
    model: 'cmp-bedrock',
    channel: { provider: 'bedrock', region: 'us-west-2', apiKey: BEDROCK_KEY, modelMap: { 'cmp-bedrock': 'us.amazon.nova-pro-v1:0' } },
  },
] as const;

const HISTORY = [
  { role: 'user' as const, content: 'Rename the function parse_config to load_config in src/config.py.' },
  { role: 'assistant' as const, content: 'Done: renamed it and updated the two callers.' },
  { role: 'user' as const, content: 'Now add a test for load_config.' },
];
const SUMMARY = 'SUMMARY: parse_config was renamed to load_config in src/config.py; next, add a test for load_config.';

/**
 * `POST /v1/responses/compact` through the openai SDK's `client.responses.compact()` on every
 * upstream kind: the gateway asks the routed model for a summary (one ordinary generation: usage
 * row, charge), returns OpenAI's `response.compaction` object whose compaction item is sealed by
 * the gateway, and expands the item to the summary when a later request (POST or WebSocket)
 * carries it back. An item the gateway did not seal, or one altered, is a 400 naming it.
 */
describe('Responses compaction through the openai SDK', { concurrency: false }, () => {
  let harness: Harness;
  let client: OpenAI;
  let other: OpenAI;
  let key: { id: string; key: string };

  before(async () => {
    harness = await startHarness({}, { clouds: { bedrock: { credentials: {}, apiKeys: [BEDROCK_KEY] } } });
    for (const upstream of UPSTREAMS) {
      await harness.addChannel({ ...upstream.channel, ...(upstream.name === 'bedrock' ? { baseUrl: harness.simulator.url } : {}), models: [upstream.model] });
    }
    key = await harness.addKey();
    client = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: key.key, maxRetries: 0 });
    other = new OpenAI({ baseURL: `${harness.url}/v1`, apiKey: (await harness.addKey()).key, maxRetries: 0 });
  });
  after(() => harness.close());

  const lastGenerate = (): Json => harness.simulator.requests.filter((request) => request.endpoint === 'generate').at(-1) as Json;

  const lastCompact = (): Json => harness.simulator.requests.filter((request) => request.endpoint === 'compact').at(-1) as Json;

  for (const upstream of UPSTREAMS.filter((one) => one.name !== 'openai')) {
    test(`${upstream.name}: compact() returns a sealed compaction item that later turns expand to the summary`, async () => {
      harness.simulator.enqueue({ text: SUMMARY });
      const compacted = (await client.responses.compact({ model: upstream.model, input: HISTORY, instructions: 'You are a coding agent.' })) as unknown as Json;
      assert.equal(compacted.object, 'response.compaction');
      assert.match(compacted.id, /^resp_/);
      const item = compacted.output.at(-1);
      assert.equal(item.type, 'compaction');
      assert.match(item.id, /^cmp_/);
      assert.equal(typeof item.encrypted_content, 'string');
      assert.ok(!item.encrypted_content.includes('load_config'), 'the summary is opaque to the client');
      assert.deepEqual(
        compacted.output.slice(0, -1).map((message: Json) => message.content),
        [HISTORY[0]!.content, HISTORY[2]!.content],
        'the user messages, then the item',
      );
      assert.ok(compacted.usage.input_tokens > 0);
      assert.match(lastGenerate().rawBody, /CONTEXT CHECKPOINT COMPACTION/, 'the routed model was asked for a summary');

      // The compaction is an ordinary generation: its own usage row, billed.
      const { data } = await harness.admin('GET', `/logs?key=${key.id}&limit=1`);
      assert.equal(data[0].model, upstream.model);
      assert.equal(data[0].status, 200);
      assert.equal(data[0].clientProtocol, 'openai-responses');

      // Carried back over HTTP: the upstream sees the summary, never the sealed content.
      harness.simulator.enqueue({ text: 'Added tests/test_config.py.' });
      const next = await client.responses.create({ model: upstream.model, input: [...compacted.output, { role: 'user', content: 'Go on.' }], store: false });
      assert.equal(next.output_text, 'Added tests/test_config.py.');
      const upstreamBody = lastGenerate().rawBody as string;
      assert.match(upstreamBody, /parse_config was renamed to load_config/);
      assert.ok(!upstreamBody.includes(item.encrypted_content));

      // And over the WebSocket.
      const socket = new SdkResponsesSocket(`${harness.url}/v1`, key.key);
      try {
        harness.simulator.enqueue({ text: 'Over the socket.' });
        const turn = await socket.turn({ model: upstream.model, input: [...compacted.output, { role: 'user', content: 'Go on.' }], store: false });
        assert.equal(outputText(turn.response), 'Over the socket.');
        assert.match(lastGenerate().rawBody, /parse_config was renamed to load_config/);
      } finally {
        socket.close();
      }
    });
  }

  test('openai: compact() goes to the upstream’s own /responses/compact, billed, its item wrapped for the key and handed back exactly', async () => {
    await harness.admin('POST', '/prices', { model: 'cmp-openai', input: 2, output: 8 });
    harness.simulator.enqueue({ usage: { input: 1_000, output: 200 } });
    const { data, response } = await client.responses.compact({ model: 'cmp-openai', input: HISTORY, instructions: 'You are a coding agent.' }).withResponse();
    const compacted = data as unknown as Json;
    assert.equal(response.status, 200);
    const sent = lastCompact();
    assert.equal(sent.path, '/v1/responses/compact');
    assert.deepEqual(sent.body, { model: 'gpt-5', input: HISTORY, instructions: 'You are a coding agent.' }, 'the body as sent, the model mapped');
    assert.equal(compacted.object, 'response.compaction');
    assert.deepEqual(compacted.usage.input_tokens, 1_000);
    const item = compacted.output.at(-1);
    assert.equal(item.type, 'compaction');
    assert.ok(!item.encrypted_content.startsWith('gAAAAAB'), 'the upstream content is wrapped for the key');

    const { data: logs } = await harness.admin('GET', `/logs?key=${key.id}&limit=1`);
    assert.equal(logs[0].model, 'cmp-openai');
    assert.equal(logs[0].status, 200);
    assert.equal(logs[0].inputTokens, 1_000);
    assert.equal(logs[0].outputTokens, 200);
    assert.equal(logs[0].costMicros, 1_000 * 2 + 200 * 8, 'billed at the model price from the upstream usage');
    assert.equal(logs[0].clientProtocol, 'openai-responses');

    // Carried back: the upstream gets its own item exactly as it issued it (the simulator refuses any other).
    harness.simulator.enqueue({ text: 'Continued on OpenAI.' });
    const next = await client.responses.create({ model: 'cmp-openai', input: [...compacted.output, { role: 'user', content: 'Go on.' }], store: false });
    assert.equal(next.output_text, 'Continued on OpenAI.');
    const forwarded = (lastGenerate().body as Json).input.find((one: Json) => one.type === 'compaction');
    assert.match(forwarded.encrypted_content, /^gAAAAAB/);
    // Another key cannot use it.
    const refused = await other.responses.create({ model: 'cmp-openai', input: [item, { role: 'user', content: 'Go on.' }], store: false }).then(
      () => assert.fail('another key used the item'),
      (caught: unknown) => caught as Json,
    );
    assert.equal(refused.status, 400);
    assert.equal(refused.param, 'input[0].encrypted_content');
    // Nor compact it again; the refusal has its usage row.
    const compactCalls = harness.simulator.requests.filter((request) => request.endpoint === 'compact').length;
    const again = await other.responses.compact({ model: 'cmp-openai', input: [item, { role: 'user', content: 'Go on.' }] }).then(
      () => assert.fail('another key compacted the item'),
      (caught: unknown) => caught as Json,
    );
    assert.equal(again.status, 400);
    assert.match(again.message, /input\[0\]: compaction item/);
    assert.equal(harness.simulator.requests.filter((request) => request.endpoint === 'compact').length, compactCalls, 'nothing went upstream');
    const { data: refusedRows } = await harness.admin('GET', `/logs?limit=1`);
    assert.equal(refusedRows[0].status, 400);
  });

  test('openai: a field the compact endpoint does not take is refused by the upstream, in OpenAI’s words', async () => {
    const error = await client.responses.compact({ model: 'cmp-openai', input: HISTORY, stream: true } as never).then(
      () => assert.fail('accepted'),
      (caught: unknown) => caught as Json,
    );
    assert.equal(error.status, 400);
    assert.match(error.message, /Unknown parameter: 'stream'/);
  });

  test('openai: a compaction_trigger turn over the socket goes to /responses/compact with the compact fields only, and continues', async () => {
    const socket = new SdkResponsesSocket(`${harness.url}/v1`, key.key);
    try {
      const turn = await socket.turn({
        model: 'cmp-openai',
        input: [...HISTORY, { type: 'compaction_trigger' }],
        store: false,
        include: ['reasoning.encrypted_content'],
        tool_choice: 'auto',
        tools: [],
        parallel_tool_calls: false,
      });
      assert.deepEqual(
        turn.response?.output.map((item: Json) => item.type),
        ['compaction'],
      );
      assert.deepEqual(
        Object.keys(lastCompact().body).sort(),
        ['input', 'model', 'parallel_tool_calls', 'tools'],
        'no create-only field reached the compact endpoint',
      );
      harness.simulator.enqueue({ text: 'Continued.' });
      const next = await socket.turn({ model: 'cmp-openai', input: [turn.response?.output[0], { role: 'user', content: 'Go on.' }], store: false });
      assert.equal(outputText(next.response), 'Continued.');
      assert.match(((lastGenerate().body as Json).input[0] as Json).encrypted_content, /^gAAAAAB/, 'the upstream got its own item back');
    } finally {
      socket.close();
    }
  });

  test('a compaction item the gateway did not seal, an altered one, or another key’s is a 400 naming the item', async () => {
    harness.simulator.enqueue({ text: SUMMARY });
    const compacted = (await client.responses.compact({ model: 'cmp-anthropic', input: HISTORY })) as unknown as Json;
    const item = compacted.output.at(-1);
    const calls = harness.simulator.requests.length;
    const refuse = async (sender: OpenAI, compaction: Json, what: string) => {
      const error = await sender.responses
        .create({ model: 'cmp-anthropic', input: [{ role: 'user', content: 'hi' }, compaction as never, { role: 'user', content: 'Go on.' }], store: false })
        .then(
          () => assert.fail(`${what} was accepted`),
          (caught: unknown) => caught as Json,
        );
      assert.equal(error.status, 400, what);
      assert.equal(error.param, 'input[1].encrypted_content', what);
      assert.match(error.message, /input\[1\]: compaction item/, what);
    };
    await refuse(client, { type: 'compaction', id: 'cmp_forged', encrypted_content: 'gAAAAABforged-by-someone-else' }, 'a foreign item');
    const bytes = Buffer.from(item.encrypted_content, 'base64');
    bytes[bytes.length - 1] = (bytes.at(-1) ?? 0) ^ 1;
    await refuse(client, { ...item, encrypted_content: bytes.toString('base64') }, 'an altered item');
    await refuse(other, item, 'another key’s item');
    assert.equal(harness.simulator.requests.length, calls, 'nothing went upstream');
  });

  test('a compaction_trigger item (Codex remote compaction v2) is answered with exactly one sealed compaction item, over HTTP and the socket', async () => {
    harness.simulator.enqueue({ text: SUMMARY });
    const plain = (await client.responses.create({
      model: 'cmp-gemini',
      input: [...HISTORY, { type: 'compaction_trigger' } as never],
      store: false,
    })) as unknown as Json;
    assert.equal(plain.output.length, 1);
    assert.equal(plain.output[0].type, 'compaction');
    assert.match(lastGenerate().rawBody, /CONTEXT CHECKPOINT COMPACTION/);

    const socket = new SdkResponsesSocket(`${harness.url}/v1`, key.key);
    try {
      harness.simulator.enqueue({ text: SUMMARY });
      const turn = await socket.turn({ model: 'cmp-gemini', input: [...HISTORY, { type: 'compaction_trigger' }], store: false });
      assert.deepEqual(
        turn.events.map((event) => event.type),
        ['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed'],
      );
      assert.equal(turn.response?.output.length, 1);
      harness.simulator.enqueue({ text: 'Continued.' });
      const next = await socket.turn({ model: 'cmp-gemini', input: [turn.response?.output[0], { role: 'user', content: 'Go on.' }], store: false });
      assert.equal(outputText(next.response), 'Continued.');
      assert.match(lastGenerate().rawBody, /parse_config was renamed to load_config/);
    } finally {
      socket.close();
    }
  });

  test('context_management compaction reaches an OpenAI Responses upstream unchanged; a translated lane under the threshold goes on without it', async () => {
    const contextManagement = [{ type: 'compaction', compact_threshold: 200_000 }];
    harness.simulator.enqueue({ text: 'ok' });
    await client.responses.create({ model: 'cmp-openai', input: 'hi', store: false, context_management: contextManagement } as never);
    assert.deepEqual((lastGenerate().body as Json).context_management, contextManagement);
    harness.simulator.enqueue({ text: 'ok' });
    const { response } = await client.responses
      .create({ model: 'cmp-anthropic', input: 'hi', store: false, context_management: contextManagement } as never)
      .withResponse();
    assert.ok(!(lastGenerate().rawBody as string).includes('context_management'));
    assert.ok(
      !(response.headers.get('x-switchyard-warnings') ?? '').includes('context_management'),
      'under the threshold: handled by the gateway, nothing to compact',
    );
  });

  // A conversation well over a tiny threshold (about 4 characters a token); the bulk is the
  // assistant's, which the summary replaces (user messages are kept, as OpenAI's compaction keeps them).
  const LONG_HISTORY = [
    { role: 'user' as const, content: 'Rename parse_config to load_config.' },
    { role: 'assistant' as const, content: `Done: renamed it and updated the two callers. ${'Context line. '.repeat(60)}` },
    { role: 'user' as const, content: 'Now add a test for load_config.' },
  ];
  const overThreshold = [{ type: 'compaction', compact_threshold: 50 }];

  for (const upstream of UPSTREAMS.filter((one) => one.name !== 'openai')) {
    test(`${upstream.name}: context_management over its compact_threshold compacts in the gateway and continues, the output starting with the sealed item (HTTP stream and plain)`, async () => {
      const rows = async () => (await harness.admin('GET', `/logs?key=${key.id}&limit=2`)).data as Json[];
      harness.simulator.enqueue({ text: SUMMARY });
      harness.simulator.enqueue({ text: 'Added the test.' });
      const events: Json[] = [];
      const stream = await client.responses.create({
        model: upstream.model,
        input: LONG_HISTORY,
        store: false,
        stream: true,
        context_management: overThreshold,
      } as never);
      for await (const event of stream as unknown as AsyncIterable<Json>) events.push(event);
      const generates = harness.simulator.requests.filter((request) => request.endpoint === 'generate').slice(-2);
      assert.match(generates[0]!.rawBody, /CONTEXT CHECKPOINT COMPACTION/, 'first the summary');
      assert.match(generates[1]!.rawBody, /parse_config was renamed to load_config/, 'then the turn on the summary');
      assert.ok(!generates[1]!.rawBody.includes('Context line. Context line.'), 'the long history did not go again');
      assert.ok(!generates[1]!.rawBody.includes('context_management'));
      const completed = events.find((event) => event.type === 'response.completed')?.response;
      assert.equal(completed.output[0].type, 'compaction');
      assert.equal(completed.output[1].type, 'message');
      assert.equal(completed.output[1].content[0].text, 'Added the test.');
      const added = events.filter((event) => event.type === 'response.output_item.added').map((event) => [event.output_index, event.item.type]);
      assert.deepEqual(added, [
        [0, 'compaction'],
        [1, 'message'],
      ]);
      const [turnRow, compactRow] = await rows();
      assert.equal(turnRow!.status, 200);
      assert.equal(compactRow!.status, 200);
      assert.equal(compactRow!.requestId, `${turnRow!.requestId}-compact`, 'the compaction is its own usage row');

      // The next turn carries the item back; a plain reply starts with the item too when it compacts again.
      harness.simulator.enqueue({ text: 'Next.' });
      const next = (await client.responses.create({
        model: upstream.model,
        input: [...LONG_HISTORY.slice(0, 1), completed.output[0], { role: 'user', content: 'Go on.' }],
        store: false,
        context_management: [{ type: 'compaction', compact_threshold: 100_000 }],
      } as never)) as unknown as Json;
      assert.equal(next.output[0].type, 'message', 'under the threshold: no compaction');
      assert.match(lastGenerate().rawBody, /parse_config was renamed to load_config/);
      harness.simulator.enqueue({ text: SUMMARY });
      harness.simulator.enqueue({ text: 'Plain.' });
      const plain = (await client.responses.create({
        model: upstream.model,
        input: LONG_HISTORY,
        store: false,
        context_management: overThreshold,
      } as never)) as unknown as Json;
      assert.deepEqual(
        plain.output.map((item: Json) => item.type),
        ['compaction', 'message'],
      );
    });
  }

  test('context_management over the threshold on the WebSocket: compacted, continued, the item first', async () => {
    const socket = new SdkResponsesSocket(`${harness.url}/v1`, key.key);
    try {
      harness.simulator.enqueue({ text: SUMMARY });
      harness.simulator.enqueue({ text: 'Over the socket.' });
      const turn = await socket.turn({ model: 'cmp-gemini', input: LONG_HISTORY, store: false, context_management: overThreshold });
      assert.deepEqual(
        turn.response?.output.map((item: Json) => item.type),
        ['compaction', 'message'],
      );
      assert.equal(outputText(turn.response), 'Over the socket.');
      assert.match(lastGenerate().rawBody, /parse_config was renamed to load_config/);
    } finally {
      socket.close();
    }
  });

  test('a compaction turn over a history with tool calls declares the tools (Bedrock Converse refuses tool blocks without a toolConfig)', async () => {
    harness.simulator.enqueue({ text: SUMMARY });
    const tool = {
      type: 'function',
      name: 'read_file',
      description: 'Read a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      strict: false,
    };
    const compacted = (await client.responses.create({
      model: 'cmp-bedrock',
      tools: [tool],
      store: false,
      input: [
        { role: 'user', content: 'Read notes.txt' },
        { type: 'function_call', call_id: 'call_1', name: 'read_file', arguments: '{"path":"notes.txt"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'ZEBRA' },
        { type: 'compaction_trigger' } as never,
      ],
    } as never)) as unknown as Json;
    assert.equal(compacted.output[0]?.type, 'compaction', JSON.stringify(compacted));
  });
});
