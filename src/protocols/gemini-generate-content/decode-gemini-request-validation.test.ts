import { describe, test } from 'node:test';
import { assertInvalidRequest } from '../../../test/helpers/assert-invalid-request.ts';
import { createFixedRuntime } from '../../../test/helpers/fixed-runtime.ts';
import { decodeGeminiRequest } from './decode-gemini-request.ts';

const decode = (body: unknown) => decodeGeminiRequest({ body, pathModel: 'gemini-2.5-flash' }, createFixedRuntime());

function assertInvalid(body: unknown, param: string, pattern: RegExp): void {
  assertInvalidRequest(() => decode(body), param, pattern);
}

describe('decodeGeminiRequest validation', () => {
  test('malformed bodies throw invalid_request naming the field, never a TypeError', () => {
    assertInvalid(null, 'body', /JSON object/);
    assertInvalid('hello', 'body', /JSON object/);
    assertInvalid([1, 2], 'body', /JSON object/);
    assertInvalid({}, 'contents', /contents/);
    assertInvalid({ contents: 'hi' }, 'contents', /array/);
    assertInvalid({ contents: [null] }, 'contents[0]', /contents\[0\]/);
    assertInvalid({ contents: [{ role: 'user' }] }, 'contents[0].parts', /parts/);
    assertInvalid({ contents: [{ role: 'assistant', parts: [] }] }, 'contents[0].role', /"user" or "model"/);
    assertInvalid({ contents: [{ role: 'user', parts: [{ bogus: 1 }] }] }, 'contents[0].parts[0]', /no known field/);
    assertInvalid({ contents: [{ role: 'user', parts: [7] }] }, 'contents[0].parts[0]', /object/);
    assertInvalid({ contents: [{ role: 'user', parts: [{ text: 5 }] }] }, 'contents[0].parts[0].text', /string/);
    assertInvalid({ contents: [{ role: 'model', parts: [{ functionCall: { args: {} } }] }] }, 'contents[0].parts[0].functionCall.name', /name/);
    assertInvalid({ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'image/png' } }] }] }, 'contents[0].parts[0].inlineData.data', /base64/);
    assertInvalid({ contents: [], generationConfig: { temperature: 'hot' } }, 'generationConfig.temperature', /number/);
    assertInvalid({ contents: [], tools: {} }, 'tools', /array/);
    assertInvalid({ contents: [], systemInstruction: { parts: [{ inlineData: {} }] } }, 'systemInstruction.parts[0].text', /text/);
  });
});
