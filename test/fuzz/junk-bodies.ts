import fc from 'fast-check';

/** A value nested `depth` levels deep, as arrays or objects: parsers and schema walkers must not overflow. */
export function deepNesting(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Anything JSON can hold, wrong for every field it lands in. */
const anyJson = fc.oneof(
  { depthSize: 'small' },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.constant(''),
  fc.constant(-1),
  fc.constant(1e308),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** Messages whose roles and parts are almost right: the cases tolerant readers must still reject cleanly. */
const almostMessage = fc.record(
  {
    role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'developer', 'tool', 'model', 'function', ''), anyJson),
    content: fc.oneof(
      anyJson,
      fc.array(
        fc.record(
          {
            type: fc.oneof(fc.constantFrom('text', 'image_url', 'image', 'tool_use', 'tool_result', 'thinking', 'input_text', 'function_call'), anyJson),
            text: anyJson,
            image_url: anyJson,
            source: anyJson,
            id: anyJson,
            input: anyJson,
          },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
    ),
    tool_calls: anyJson,
    tool_call_id: anyJson,
    parts: fc.oneof(
      anyJson,
      fc.array(fc.dictionary(fc.constantFrom('text', 'inlineData', 'functionCall', 'functionResponse', 'thought'), anyJson), { maxLength: 3 }),
    ),
  },
  { requiredKeys: [] },
);

/** Bodies with the right field names and wrong everything else, for a known model. */
export function junkObject(model: string): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(
      {
        model: fc.oneof(fc.constant(model), anyJson),
        messages: fc.oneof(anyJson, fc.array(almostMessage, { maxLength: 4 })),
        input: fc.oneof(anyJson, fc.array(almostMessage, { maxLength: 3 })),
        contents: fc.oneof(anyJson, fc.array(almostMessage, { maxLength: 3 })),
        system: anyJson,
        systemInstruction: anyJson,
        instructions: anyJson,
        tools: fc.oneof(
          anyJson,
          fc.array(fc.dictionary(fc.constantFrom('type', 'name', 'function', 'input_schema', 'parameters', 'functionDeclarations'), anyJson), { maxLength: 2 }),
        ),
        tool_choice: anyJson,
        max_tokens: anyJson,
        temperature: anyJson,
        stop: anyJson,
        stream: fc.oneof(fc.boolean(), anyJson),
        stream_options: anyJson,
        generationConfig: anyJson,
        thinking: anyJson,
        reasoning: anyJson,
        response_format: anyJson,
      },
      { requiredKeys: ['model'] },
    )
    .map((body) => body as Record<string, unknown>);
}

/** Raw request bodies: valid JSON of the wrong shape, broken JSON, invalid UTF-8, huge strings. */
export function junkBody(model: string): fc.Arbitrary<Uint8Array | string> {
  return fc.oneof(
    junkObject(model).map((body) => JSON.stringify(body)),
    fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
    fc.array(junkObject(model), { maxLength: 2 }).map((value) => JSON.stringify(value)),
    fc.string().map((text) => `{"model":"${model}",${text}`),
    fc.constantFrom('', 'null', '[]', '"just a string"', '{', '{"model":', 'not json at all', '\u0000'),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => new Uint8Array([0x7b, 0xff, 0xfe, ...bytes])),
    fc.constantFrom(deepNesting(5000, 'array'), deepNesting(5000, 'object')),
    fc.constant(JSON.stringify({ model, messages: [{ role: 'user', content: 'x'.repeat(300_000) }], max_tokens: 'x'.repeat(300_000) })),
    fc.constant(invalidUtf8(model)),
    fc.constantFrom(...deepToolBodies(model)),
  );
}

/** A body that is JSON except for one byte sequence that is not UTF-8. */
function invalidUtf8(model: string): Uint8Array {
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode(`{"model":"${model}","messages":[{"role":"user","content":"`), 0xc3, 0x28, 0xff, ...encoder.encode('"}]}')]);
}

/** Tool schemas nested far deeper than any real one, in each protocol's tool shape. */
function deepToolBodies(model: string): string[] {
  const schema = deepNesting(20_000, 'object').replaceAll('"a":', '"properties":');
  return [
    `{"model":"${model}","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":${schema}}}]}`,
    `{"model":"${model}","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":${schema}}]}`,
    `{"model":"${model}","input":"hi","tools":[{"type":"function","name":"f","parameters":${schema}}]}`,
    `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"f","parameters":${schema}}]}]}`,
  ];
}
