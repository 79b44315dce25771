import { GatewayError } from '../../core/gateway-error.ts';

/** A reply that does not carry what its format promises: worth another channel, never a 500. */
export function invalidEmbeddingReply(what: string): GatewayError {
  return new GatewayError('upstream_invalid_response', `The upstream's embeddings reply is not usable: ${what}.`);
}

/** An array of finite numbers, or the reason it is not. */
export function readVector(value: unknown, where: string): number[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number' && Number.isFinite(item))) {
    throw invalidEmbeddingReply(`${where} is not an array of numbers`);
  }
  return value as number[];
}

export function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Every slot filled (a sparse array's holes are skipped by `some`, so count them). */
export function assertComplete(vectors: Array<number[] | undefined>): asserts vectors is number[][] {
  for (let index = 0; index < vectors.length; index += 1) {
    if (vectors[index] === undefined) throw invalidEmbeddingReply(`no embedding for input ${index}`);
  }
}
