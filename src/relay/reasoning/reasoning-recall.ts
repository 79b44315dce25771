import { callIdsToRecall } from './restore-request-reasoning.ts';
import type { RelayDeps } from '../relay-deps.ts';
import type { RelayInput } from '../relay-input.ts';

/** The request's kept envelopes by tool-call id (empty when none, or when the kv could not say). */
export type ReasoningRecall = () => Promise<ReadonlyMap<string, string>>;

/**
 * One request's look-up in the tool-call reasoning cache: run on the first translated attempt
 * that asks (passthrough attempts never do), at most once however many attempts or hedges
 * follow, and in one kv round trip (MGET with Redis) for every call id the request may need.
 * A request with no assistant tool calls lacking their own envelope costs no round trip. The
 * cache turns kv failures into an empty answer; only the client's own undecodable body rejects.
 */
export function reasoningRecall(deps: RelayDeps, input: RelayInput): ReasoningRecall | undefined {
  const reasoning = deps.reasoning;
  const scope = input.reasoningScope;
  if (!reasoning || scope === undefined) return undefined;
  let pending: Promise<ReadonlyMap<string, string>> | undefined;
  const lookUp = async (): Promise<ReadonlyMap<string, string>> => {
    const callIds = callIdsToRecall(input.decodeClientRequest().request);
    return callIds.length === 0 ? new Map() : reasoning.cache.recall(scope, callIds);
  };
  return () => (pending ??= lookUp());
}
