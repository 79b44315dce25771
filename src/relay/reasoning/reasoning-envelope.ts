import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ReasoningState } from '../../core/reasoning-state.ts';
import type { UpstreamProtocolId } from '../../protocols/protocol-codec.ts';

export type { ReasoningState };

/** What an envelope binds its state to: one upstream protocol on one channel. */
export interface EnvelopeBinding {
  protocol: UpstreamProtocolId;
  channelId: string;
}

export interface OpenedEnvelope extends EnvelopeBinding {
  states: ReasoningState[];
}

// "SYR" + version 1: recognisable after base64 ("U1lSA…") without being parsed.
const MAGIC = Buffer.from([0x53, 0x59, 0x52, 0x01]);
const MAC_BYTES = 16;
export const ENVELOPE_PREFIX = MAGIC.toString('base64').slice(0, 5);

export interface EnvelopeSealer {
  seal(binding: EnvelopeBinding, states: ReasoningState[]): string;
  /** The envelope's contents when it is one of ours and untouched; undefined otherwise. */
  open(value: string): OpenedEnvelope | undefined;
}

export function looksLikeEnvelope(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(ENVELOPE_PREFIX);
}

/**
 * Envelopes are plain base64 (some clients treat thoughtSignature as bytes and re-encode it),
 * opaque to clients (deflated JSON) and authenticated with an HMAC under a key derived from the
 * gateway's secret. The MAC covers the protocol and channel, so a client can neither forge
 * reasoning state nor move one channel's state to another.
 */
export function createEnvelopeSealer(gatewaySecret: Buffer | string): EnvelopeSealer {
  const box = createJsonSeal(gatewaySecret, 'switchyard reasoning envelope v1', MAGIC);
  return {
    seal: (binding, states) => box.seal({ p: binding.protocol, c: binding.channelId, s: states }),
    open(value) {
      if (!looksLikeEnvelope(value)) return undefined;
      const parsed = box.open(value) as { p: UpstreamProtocolId; c: string; s: ReasoningState[] } | undefined;
      if (parsed === undefined) return undefined;
      return { protocol: parsed.p, channelId: parsed.c, states: Array.isArray(parsed.s) ? parsed.s : [] };
    },
  };
}

/** Seals JSON values as opaque, authenticated base64 (see createEnvelopeSealer); one key per purpose. */
export interface JsonSeal {
  seal(value: unknown): string;
  /** The sealed value when `text` was sealed by this seal and is untouched; undefined otherwise. */
  open(text: string): unknown;
}

/**
 * magic + HMAC-SHA-256 (16 bytes, under a key derived from the gateway secret and `purpose`) +
 * deflated JSON, as base64. Shared by the reasoning envelopes and the compaction items
 * (`src/responses/compaction-seal.ts`): a different purpose and magic make one kind useless as
 * the other.
 */
export function createJsonSeal(gatewaySecret: Buffer | string, purpose: string, magic: Buffer): JsonSeal {
  const key = createHmac('sha256', gatewaySecret).update(purpose).digest();
  const mac = (body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
  return {
    seal(value) {
      const body = deflateRawSync(Buffer.from(JSON.stringify(value)));
      return Buffer.concat([magic, mac(body), body]).toString('base64');
    },
    open(text) {
      const raw = Buffer.from(text, 'base64');
      if (raw.length <= magic.length + MAC_BYTES || !raw.subarray(0, magic.length).equals(magic)) return undefined;
      const body = raw.subarray(magic.length + MAC_BYTES);
      if (!timingSafeEqual(raw.subarray(magic.length, magic.length + MAC_BYTES), mac(body))) return undefined;
      try {
        return JSON.parse(inflateRawSync(body, { maxOutputLength: 16 * 1024 * 1024 }).toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
