import { GatewayError } from '../core/gateway-error.ts';
import type { Snapshot } from '../snapshot/snapshot.ts';
import { listGroupModels } from '../snapshot/snapshot.ts';
import type { Channel } from '../domain/channel.ts';
import type { Caller } from './authenticate-key.ts';
import { suggestModelName } from './suggest-model-name.ts';

/**
 * Decides whether the caller may use `model` and returns the channels that can serve it,
 * in the order of the specification's model check: the group must contain the model, the
 * name must be spelled exactly, the key's own allow-list must include it, and the surface
 * (path prefix) must be allowed to reach a channel. Never names another group, and by
 * default does not even say that one has the model.
 */
export function authorizeModel(
  snapshot: Snapshot,
  caller: Caller,
  model: string,
  surface: string | null,
  options: { revealOtherGroups?: boolean } = {},
): Channel[] {
  const groupName = caller.group.name;
  const channels = snapshot.routes.get(groupName)?.get(model);
  if (!channels) {
    const suggestion = suggestModelName(model, visibleModels(snapshot, caller));
    if (suggestion) {
      throw new GatewayError('model_not_found', `Model "${model}" is not available in group "${groupName}". ${suggestion}`, { param: 'model' });
    }
    // Unless the operator opts in (REVEAL_OTHER_GROUP_MODELS), a model of another group gets
    // the same answer as one that does not exist: a key must not learn what other groups use.
    if (options.revealOtherGroups === true && snapshot.allModels.has(model)) {
      throw new GatewayError(
        'model_not_in_group',
        `Model "${model}" is not available to group "${groupName}", the group this key is bound to. Use a model listed by GET /v1/models, or ask the operator to add the model to the group.`,
        { param: 'model' },
      );
    }
    throw new GatewayError('model_not_found', `Model "${model}" does not exist on this gateway. List the models your key can use with GET /v1/models.`, {
      param: 'model',
    });
  }
  const allowed = caller.key.allowedModels;
  if (allowed !== null && !allowed.includes(model)) {
    throw new GatewayError(
      'model_not_allowed_for_key',
      `This key may only use ${allowed.map((name) => `"${name}"`).join(', ') || 'no models'}; "${model}" is not among them. Ask the operator to extend the key's allowed models.`,
      { param: 'model' },
    );
  }
  const reachable = channels.filter((channel) => surfaceAllowed(channel, surface));
  if (reachable.length === 0) {
    throw new GatewayError(
      'prefix_not_allowed',
      surface === null
        ? `Model "${model}" is only served under a client-specific path prefix; use that prefix's address.`
        : `Model "${model}" is not served under the /${surface} prefix; use the root address for it.`,
      { param: 'model' },
    );
  }
  return reachable;
}

/** The models a caller sees in model lists: the group's, narrowed by the key's allow-list. */
export function visibleModels(snapshot: Snapshot, caller: Caller, surface: string | null = null): string[] {
  const models = listGroupModels(snapshot, caller.group.name).filter((model) => {
    if (caller.key.allowedModels !== null && !caller.key.allowedModels.includes(model)) return false;
    const channels = snapshot.routes.get(caller.group.name)?.get(model) ?? [];
    return channels.some((channel) => surfaceAllowed(channel, surface));
  });
  return models;
}

function surfaceAllowed(channel: Channel, surface: string | null): boolean {
  if (channel.allowedPrefixes.length === 0) return true;
  return surface !== null && channel.allowedPrefixes.includes(surface);
}
