import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GatewayError } from '../../core/gateway-error.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { createGeminiStreamDecoder } from './create-gemini-stream-decoder.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';
import { decodeGeminiResponse } from './decode-gemini-response.ts';

/** Bodies shaped roughly like Gemini requests, with junk at every level. */
const junkPart = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.record({ text: fc.jsonValue({ maxDepth: 1 }), thought: fc.jsonValue({ maxDepth: 0 }) }, { requiredKeys: [] }),
  fc.record({ inlineData: fc.jsonValue({ maxDepth: 2 }), fileData: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
  fc.record({ functionCall: fc.jsonValue({ maxDepth: 2 }), functionResponse: fc.jsonValue({ maxDepth: 2 }) }, { requiredKeys: [] }),
);
const junkBody = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      contents: fc.oneof(
        fc.jsonValue({ maxDepth: 1 }),
        fc.array(fc.record({ role: fc.jsonValue({ maxDepth: 0 }), parts: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.array(junkPart)) }, { requiredKeys: [] })),
      ),
      systemInstruction: fc.jsonValue({ maxDepth: 2 }),
      generationConfig: fc.jsonValue({ maxDepth: 2 }),
      tools: fc.jsonValue({ maxDepth: 3 }),
      toolConfig: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  ),
);

test('junk request bodies either decode or throw a GatewayError, never anything else', () => {
  fc.assert(
    fc.property(junkBody, (body) => {
      try {
        decodeGeminiRequest({ body, pathModel: 'm' }, createFixedRuntime());
      } catch (error) {
        assert.ok(error instanceof GatewayError, String(error));
        assert.equal(error.code, 'invalid_request');
        assert.ok(error.param !== undefined);
      }
    }),
    { numRuns: 500 },
  );
});

test('junk responses and stream chunks never escape as TypeErrors', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.string(),
          fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
        ),
      ),
      junkBody,
      (chunks, body) => {
        const decoder = createGeminiStreamDecoder(createFixedRuntime());
        for (const data of chunks) decoder.push({ data });
        decoder.end();
        try {
          decodeGeminiResponse(body, createFixedRuntime());
        } catch (error) {
          assert.ok(error instanceof GatewayError, String(error));
        }
      },
    ),
    { numRuns: 300 },
  );
});
