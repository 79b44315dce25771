import { invalidRequest } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';

/** `POST /v1/moderations` as the gateway reads it: the model and the text it is priced by. */
export interface ModerationRequest {
  model: string;
  /** Every text input joined: billed as text input tokens. */
  text: string;
  /** Image inputs (omni-moderation), counted like a text input of this many tokens each. */
  images: number;
  body: Record<string, unknown>;
}

const MAX_INPUTS = 32;

/**
 * Reads and checks a moderation request: `input` is a string, an array of strings, or (for
 * omni-moderation) an array of `{ type: "text" | "image_url" }` parts. OpenAI defaults the model to
 * `omni-moderation-latest`; the gateway does the same, since a moderation has one natural model and
 * the group's authorization still decides whether the key may use it.
 */
export function decodeModerationRequest(body: unknown): ModerationRequest {
  if (!isRecord(body)) throw invalidRequest('The request body must be a JSON object.');
  for (const field of Object.keys(body))
    if (field !== 'input' && field !== 'model') throw invalidRequest(`Unrecognized request argument supplied: ${field}`, field);
  const model = body.model ?? 'omni-moderation-latest';
  if (typeof model !== 'string' || model === '') throw invalidRequest('"model" must name a moderation model.', 'model');
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(inputs) || inputs.length === 0)
    throw invalidRequest('"input" is required: a string, an array of strings, or an array of text and image parts.', 'input');
  if (inputs.length > MAX_INPUTS) throw invalidRequest(`"input" may hold at most ${MAX_INPUTS} items.`, 'input');
  const texts: string[] = [];
  let images = 0;
  for (const input of inputs) {
    if (typeof input === 'string') texts.push(input);
    else if (isRecord(input) && input.type === 'text' && typeof input.text === 'string') texts.push(input.text);
    else if (isRecord(input) && input.type === 'image_url' && isRecord(input.image_url)) images += 1;
    else throw invalidRequest('Each "input" item must be a string or a { type: "text" | "image_url" } part.', 'input');
  }
  return { model, text: texts.join('\n'), images, body: { ...body, model } };
}
