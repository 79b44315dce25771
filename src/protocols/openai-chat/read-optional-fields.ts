import { invalidRequest } from '../../core/gateway-error.ts';
import { isRecord } from '../shared/is-record.ts';

/*
 * Optional request fields: absent and `null` both mean "not said" (the OpenAI SDKs send
 * `null` for unset values), a value of the wrong type is the client's mistake and is named.
 */

export function readOptionalNumber(body: Record<string, unknown>, key: string, param = key): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidRequest(`'${param}' must be a number; send a number or leave it out.`, param);
  }
  return value;
}

export function readOptionalInteger(body: Record<string, unknown>, key: string, param = key): number | undefined {
  const value = readOptionalNumber(body, key, param);
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw invalidRequest(`'${param}' must be a non-negative integer; got ${value}.`, param);
  }
  return value;
}

export function readOptionalString(body: Record<string, unknown>, key: string, param = key): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw invalidRequest(`'${param}' must be a string; send a string or leave it out.`, param);
  }
  return value;
}

export function readOptionalBoolean(body: Record<string, unknown>, key: string, param = key): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') {
    throw invalidRequest(`'${param}' must be true or false; send a boolean or leave it out.`, param);
  }
  return value;
}

export function readOptionalRecord(body: Record<string, unknown>, key: string, param = key): Record<string, unknown> | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) {
    throw invalidRequest(`'${param}' must be a JSON object; send an object or leave it out.`, param);
  }
  return value;
}

/** The body itself: anything but a JSON object (null, an array, a number) is rejected by name. */
export function readRequestBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) {
    throw invalidRequest('The request body must be a JSON object; send a JSON object with "model" and the other fields.');
  }
  return body;
}

/** `model` is required by every OpenAI protocol. */
export function readModel(body: Record<string, unknown>): string {
  const model = body.model;
  if (typeof model !== 'string' || model === '') {
    throw invalidRequest('\'model\' is required and must be a non-empty string; send the model name, e.g. "model": "gpt-4o".', 'model');
  }
  return model;
}
