import type { Snapshot } from '../snapshot/snapshot.ts';
import type { Channel } from '../domain/channel.ts';
import type { Caller } from './authenticate-key.ts';
import { visibleModels } from './authorize-model.ts';
import { CLIENT_KINDS, clientSetup, isClientKind, type ClientSetup } from './client-kinds.ts';
import { suggestModelName } from './suggest-model-name.ts';

export type Verdict = 'pass' | 'fail' | 'warn' | 'skip';

export interface DiagnosisCheck {
  step: 1 | 2 | 3 | 4 | 5 | 6;
  name: 'key-group' | 'group-has-model' | 'model-spelling' | 'client-protocol' | 'channel-availability' | 'subscription';
  verdict: Verdict;
  detail: string;
  /** The error code a request would be refused with (the subscription step). */
  code?: string;
}

export interface Diagnosis {
  model: string;
  client: string | null;
  group: string;
  /** `pass` when every check passed or was skipped, otherwise the first failing step's verdict. */
  verdict: Verdict;
  checks: DiagnosisCheck[];
  setup: ClientSetup | null;
}

export interface DiagnoseInput {
  snapshot: Snapshot;
  caller: Caller;
  model: string;
  client: string | undefined;
  now: number;
  origin: string;
  altPrefix: string;
  clientIp: string;
  ipAllowed: boolean;
  /** Balance left in micro-USD (null = unlimited). */
  availableMicros: number | null;
  /** Circuit state of a channel for the model as the router sees it (the channel's circuit, else the channel × model one). */
  channelState: (channel: Channel, model: string) => 'closed' | 'open' | 'half-open';
  /** Say that other groups have the model (REVEAL_OTHER_GROUP_MODELS); default: never hint at it. */
  revealOtherGroups?: boolean;
  /**
   * An account's own check (the portal): the groups it may create keys in. A model one of them
   * serves is named as such ("your group X serves it; create a key there") — the account may
   * know its own groups — instead of being taken for a misspelling.
   */
  accountGroups?: readonly string[];
  /** What pays for the request (subscription, wallet, key balance) or why nothing can; see checkPayment. */
  payment?: { verdict: 'pass' | 'fail'; code: string | null; detail: string };
}

/**
 * The specification's model check (§4), in its order: the key's group, the group's models,
 * the spelling, the client's protocol and base address, and whether the group's channels for
 * the model are up. Each step says what it found and what to do; it never names other groups.
 */
export function diagnoseModel(input: DiagnoseInput): Diagnosis {
  const { snapshot, caller, model } = input;
  const group = caller.group.name;
  const checks: DiagnosisCheck[] = [keyCheck(input)];

  const served = snapshot.routes.get(group)?.get(model);
  const ownGroupServing = served ? undefined : input.accountGroups?.find((name) => name !== group && snapshot.routes.get(name)?.has(model) === true);
  const allowedForKey = caller.key.allowedModels === null || caller.key.allowedModels.includes(model);
  if (served && allowedForKey) {
    checks.push({ step: 2, name: 'group-has-model', verdict: 'pass', detail: `Group "${group}" contains "${model}".` });
  } else if (served) {
    checks.push({
      step: 2,
      name: 'group-has-model',
      verdict: 'fail',
      detail: `Group "${group}" contains "${model}", but this key is limited to ${caller.key.allowedModels?.map((name) => `"${name}"`).join(', ') || 'no models'}. Ask the operator to extend the key's allowed models.`,
    });
  } else if (ownGroupServing !== undefined) {
    checks.push({
      step: 2,
      name: 'group-has-model',
      verdict: 'fail',
      detail: `Group "${group}", this key's group, does not contain "${model}", but your group "${ownGroupServing}" serves it: create a key in group "${ownGroupServing}" and use that key for "${model}".`,
    });
  } else {
    const elsewhere = input.revealOtherGroups === true && snapshot.allModels.has(model);
    checks.push({
      step: 2,
      name: 'group-has-model',
      verdict: 'fail',
      detail: elsewhere
        ? `Group "${group}" does not contain "${model}" (the gateway serves it to other groups). Ask the operator to add it to group "${group}" or to bind your key to a group that has it.`
        : `Group "${group}" does not contain "${model}".`,
    });
  }

  const available = visibleModels(snapshot, caller);
  const suggestion = served || ownGroupServing !== undefined ? undefined : suggestModelName(model, available);
  checks.push(
    served || ownGroupServing !== undefined
      ? { step: 3, name: 'model-spelling', verdict: 'pass', detail: `"${model}" is spelled exactly as the gateway lists it.` }
      : suggestion
        ? { step: 3, name: 'model-spelling', verdict: 'fail', detail: `"${model}" is not a model name in your group. ${suggestion}` }
        : {
            step: 3,
            name: 'model-spelling',
            verdict: input.revealOtherGroups === true && snapshot.allModels.has(model) ? 'pass' : 'fail',
            detail:
              input.revealOtherGroups === true && snapshot.allModels.has(model)
                ? `"${model}" is spelled correctly.`
                : `No model in your group has a name close to "${model}". Your key can use: ${listNames(available)}.`,
          },
  );

  let setup: ClientSetup | null = null;
  if (input.client === undefined || !isClientKind(input.client)) {
    checks.push({
      step: 4,
      name: 'client-protocol',
      verdict: 'skip',
      detail: `${input.client === undefined ? 'No client kind given' : `Unknown client kind "${input.client}"`}; name one to check its base address (switchyard-diagnose --client <kind>; the API and the portal: client=<kind>): ${CLIENT_KINDS.join(', ')}.`,
    });
  } else {
    setup = clientSetup(input.client, input.origin, input.altPrefix, model);
    const surfaceBlocked =
      served !== undefined &&
      !served.some((channel) => channel.allowedPrefixes.length === 0 || (setup?.surface !== null && channel.allowedPrefixes.includes(setup?.surface ?? '')));
    checks.push({
      step: 4,
      name: 'client-protocol',
      verdict: surfaceBlocked ? 'fail' : 'pass',
      detail: surfaceBlocked
        ? `"${model}" is only served under a client-specific path prefix, which ${input.client} does not use here. ${setup.advice}`
        : `${input.client} speaks ${setup.protocol}: enter ${setup.baseUrl}, key in ${setup.credential}. ${setup.advice}`,
    });
  }

  checks.push(availabilityCheck(input, served ?? []));
  if (input.payment) {
    checks.push({
      step: 6,
      name: 'subscription',
      verdict: input.payment.verdict,
      detail: input.payment.detail,
      ...(input.payment.code === null ? {} : { code: input.payment.code }),
    });
  }
  const firstProblem = checks.find((check) => check.verdict === 'fail') ?? checks.find((check) => check.verdict === 'warn');
  return { model, client: input.client ?? null, group, verdict: firstProblem?.verdict ?? 'pass', checks, setup };
}

function keyCheck(input: DiagnoseInput): DiagnosisCheck {
  const { key, group } = input.caller;
  const problems: string[] = [];
  if (!key.enabled) problems.push('the key is disabled (ask the operator to enable it)');
  if (key.expiresAt !== null && key.expiresAt <= input.now)
    problems.push(`the key expired at ${new Date(key.expiresAt).toISOString()} (ask the operator to extend it)`);
  if (!input.ipAllowed) problems.push(`requests from ${input.clientIp} are outside the key's IP allow-list`);
  if (input.availableMicros !== null && input.availableMicros <= 0) problems.push('the key has no balance left (ask the operator to top it up)');
  const bound = `The key "${key.name}" is bound to group "${group.name}"${group.description ? ` (${group.description})` : ''}.`;
  return problems.length === 0
    ? { step: 1, name: 'key-group', verdict: 'pass', detail: `${bound} It is enabled and usable.` }
    : { step: 1, name: 'key-group', verdict: 'fail', detail: `${bound} But ${problems.join('; ')}.` };
}

function availabilityCheck(input: DiagnoseInput, channels: readonly Channel[]): DiagnosisCheck {
  const group = input.caller.group.name;
  const disabled = [...input.snapshot.channels.values()].filter(
    (channel) => !channel.enabled && channel.groups.includes(group) && channel.models.includes(input.model),
  ).length;
  if (channels.length === 0) {
    return {
      step: 5,
      name: 'channel-availability',
      verdict: disabled > 0 ? 'fail' : 'skip',
      detail:
        disabled > 0
          ? `All ${disabled} channel(s) serving "${input.model}" to group "${group}" are disabled; ask the operator to enable one.`
          : `No channel serves "${input.model}" to group "${group}".`,
    };
  }
  const open = channels.filter((channel) => input.channelState(channel, input.model) === 'open').length;
  const up = channels.length - open;
  const summary = `${channels.length} enabled channel(s) serve "${input.model}" to group "${group}"${disabled > 0 ? ` (${disabled} more disabled)` : ''}; ${up} currently accepting requests.`;
  return up > 0
    ? { step: 5, name: 'channel-availability', verdict: 'pass', detail: summary }
    : {
        step: 5,
        name: 'channel-availability',
        verdict: 'fail',
        detail: `${summary} Every one is paused after repeated upstream failures; retry shortly or ask the operator to check the channels.`,
      };
}

function listNames(models: string[]): string {
  if (models.length === 0) return 'no models (ask the operator to add models to your group)';
  const shown = models
    .slice(0, 20)
    .map((name) => `"${name}"`)
    .join(', ');
  return models.length > 20 ? `${shown} and ${models.length - 20} more (GET /v1/models)` : shown;
}
