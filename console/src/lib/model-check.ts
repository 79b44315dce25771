import type { AdminData } from './admin-data.ts';
import { call, isMissingEndpoint } from './api.ts';
import type { ClientKind } from '../../../src/domain/client-kinds.ts';
import { clientSetup } from '../../../src/domain/client-setup.ts';
import { loadKeyHolderView } from './key-holder.ts';
import { buildModelMatrix, cellKey, modelsOfGroup } from './model-matrix.ts';
import { suggestName } from './suggest-name.ts';

const STEP_SLUGS = ['key-group', 'group-has-model', 'model-spelling', 'client-protocol', 'channel-availability'];
const STEP_NAMES: Record<string, string> = { subscription: 'The subscription allows the request', 'subscription-status': 'The subscription allows the request', balance: 'There is money to pay for it' };

export type Verdict = 'pass' | 'fail' | 'warn' | 'info';

export interface CheckStep {
  title: string;
  verdict: Verdict;
  detail: string;
}

export interface CheckInput {
  kind: ClientKind;
  model: string;
  root: string;
  altPrefix: string;
  /** The key's secret, when the person checking has it. */
  key?: string;
  /** Operator only: every record, and which key to check. */
  admin?: AdminData;
  keyId?: string;
  /** An account checking one of its own keys (by id): the gateway diagnoses it from the session. */
  account?: { csrf: string; keyId: string };
}

export const STEP_TITLES = [
  '1. The key is bound to the correct group',
  '2. The group contains the model',
  '3. The model name is spelled correctly, without extra spaces',
  '4. The client uses the right protocol and address',
  '5. The group or channel is available',
] as const;

/**
 * The specification's five-step model check. With a key it asks the gateway (/api/diagnose) and,
 * where that is missing, works the steps out from what the console can read; the address step
 * always calls the chosen client's own model-list endpoint with the key, so it is a live test.
 */
export async function runModelCheck(input: CheckInput): Promise<{ steps: CheckStep[]; source: string }> {
  if (input.account && !input.key) {
    const query = new URLSearchParams({ key: input.account.keyId, model: input.model, client: input.kind });
    const answer = await call<Record<string, unknown>>(`/api/account/diagnose?${query}`, { csrf: input.account.csrf });
    return { steps: fromDiagnose(answer), source: 'the gateway’s own diagnosis of your key (paste the key above to also test the address live)' };
  }
  if (input.admin && input.keyId && !input.key) {
    // The operator's check of a chosen key: the gateway's own six checks, not a copy worked out here.
    const query = new URLSearchParams({ model: input.model, client: input.kind });
    const answer = await call<Record<string, unknown>>(`/api/admin/keys/${encodeURIComponent(input.keyId)}/diagnose?${query}`, { bearer: input.admin.token });
    return { steps: fromDiagnose(answer), source: 'the gateway’s own diagnosis of the key (paste the key to also test the address live)' };
  }
  if (input.key) {
    try {
      const query = new URLSearchParams({ model: input.model, client: input.kind });
      const answer = await call<Record<string, unknown>>(`/api/diagnose?${query}`, { bearer: input.key });
      const steps = fromDiagnose(answer);
      if (steps.length > 0) return { steps: await withLiveProbe(steps, input), source: 'the gateway’s own diagnosis (/api/diagnose), and a live call of the client’s model list' };
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
    }
  }
  return { steps: await localCheck(input), source: 'the console, from what it can read' };
}

async function localCheck(input: CheckInput): Promise<CheckStep[]> {
  let group: string | null = null;
  let models: string[] = [];
  let keyStep: CheckStep;
  let availability: CheckStep = {
    title: STEP_TITLES[4],
    verdict: 'info',
    detail: 'Availability of channels is reported to key holders by /api/diagnose, which this gateway does not offer yet; ask the operator.',
  };

  if (input.admin) {
    const record = input.admin.keys.find((key) => key.id === input.keyId);
    const matrix = buildModelMatrix(input.admin.groups, input.admin.channels, input.admin.prices);
    if (!record) {
      keyStep = { title: STEP_TITLES[0], verdict: 'fail', detail: 'Choose a key to check.' };
    } else {
      group = record.group;
      models = modelsOfGroup(matrix, group).filter((model) => !record.allowedModels || record.allowedModels.includes(model));
      const problem = !record.enabled
        ? 'the key is disabled'
        : record.expiresAt && Date.parse(record.expiresAt) <= Date.now()
          ? `the key expired on ${new Date(record.expiresAt).toLocaleString()}`
          : record.balance !== null && record.balance <= 0
            ? 'the key has no balance left'
            : null;
      keyStep = {
        title: STEP_TITLES[0],
        verdict: problem ? 'fail' : 'pass',
        detail: `Key “${record.name}” is bound to group “${group}”.${problem ? ` But ${problem}: requests are refused with 403.` : ''}`,
      };
    }
    const cell = group ? matrix.cells.get(cellKey(group, input.model)) : undefined;
    if (cell) {
      const names = cell.channels.map((channel) => `${channel.name} (${channel.usable ? 'usable' : channel.label})`).join(', ');
      availability = {
        title: STEP_TITLES[4],
        verdict: cell.usable > 0 ? 'pass' : 'fail',
        detail: `${cell.usable} of ${cell.total} channel(s) serving ${input.model} in ${group} can take requests: ${names}.`,
      };
    } else {
      availability = { title: STEP_TITLES[4], verdict: 'fail', detail: `No channel serves ${input.model} in group ${group ?? '(none)'}.` };
    }
  } else if (input.key) {
    const view = await loadKeyHolderView(input.key);
    group = view.group;
    models = view.models;
    keyStep = {
      title: STEP_TITLES[0],
      verdict: view.problem ? 'fail' : 'pass',
      detail: view.problem
        ? `The gateway refuses this key: ${view.problem}`
        : group
          ? `The key is bound to group “${group}”.`
          : 'The key is accepted (this gateway does not report the group name to key holders).',
    };
  } else {
    keyStep = { title: STEP_TITLES[0], verdict: 'fail', detail: 'Sign in with a key, or choose one, to check it.' };
  }

  const listed = models.includes(input.model);
  const suggestion = listed ? null : suggestName(input.model, models);
  const groupStep: CheckStep = listed
    ? { title: STEP_TITLES[1], verdict: 'pass', detail: `${group ? `Group “${group}”` : 'The key’s group'} offers ${input.model}.` }
    : {
        title: STEP_TITLES[1],
        verdict: 'fail',
        detail: models.length
          ? `Not in ${group ? `group “${group}”` : 'the key’s group'}. It offers: ${models.join(', ')}.`
          : 'The key’s group offers no models yet.',
      };
  const spellingStep: CheckStep = listed
    ? { title: STEP_TITLES[2], verdict: 'pass', detail: `“${input.model}” matches exactly.` }
    : suggestion
      ? { title: STEP_TITLES[2], verdict: 'fail', detail: `Did you mean “${suggestion.name}”? ${capitalise(suggestion.why)}.` }
      : { title: STEP_TITLES[2], verdict: 'warn', detail: 'No listed name is close to this one; pick a name from the list above.' };

  return [keyStep, groupStep, spellingStep, await protocolStep(input), availability];
}

/** Adds what the gateway cannot see from its side: this client kind's address answering with this key. */
async function withLiveProbe(steps: CheckStep[], input: CheckInput): Promise<CheckStep[]> {
  const live = await protocolStep(input);
  return steps.map((step, index) => {
    if (index !== 3) return step;
    const probe = live.detail.slice(live.detail.indexOf('Live:'));
    const verdict = step.verdict === 'fail' || live.verdict === 'fail' ? 'fail' : step.verdict === 'pass' && live.verdict === 'pass' ? 'pass' : live.verdict === 'warn' ? 'warn' : step.verdict;
    return { ...step, verdict, detail: `${step.detail} ${probe}` };
  });
}

async function protocolStep(input: CheckInput): Promise<CheckStep> {
  const setup = clientSetup(input.kind, { root: input.root, model: input.model, altPrefix: input.altPrefix });
  const advice = `Enter ${setup.address} in ${setup.label}. ${setup.addressNote}`;
  if (!input.key) return { title: STEP_TITLES[3], verdict: 'info', detail: `${advice} (Paste the key to test it live.)` };
  const headers: Record<string, string> =
    setup.probe.header === 'bearer' ? { authorization: `Bearer ${input.key}` } : { [setup.probe.header]: input.key };
  try {
    const response = await fetch(setup.probe.path, { headers, credentials: 'omit' });
    const text = await response.text();
    if (response.ok) {
      const lists = text.includes(`"${input.model}"`) || text.includes(`"models/${input.model}"`);
      return {
        title: STEP_TITLES[3],
        verdict: lists ? 'pass' : 'warn',
        detail: `${advice} Live: GET ${setup.probe.path} answered ${response.status}${lists ? ` and lists ${input.model}` : `, but does not list ${input.model}`}.`,
      };
    }
    return { title: STEP_TITLES[3], verdict: 'fail', detail: `${advice} Live: GET ${setup.probe.path} answered ${response.status}: ${messageOf(text)}` };
  } catch {
    return { title: STEP_TITLES[3], verdict: 'fail', detail: `${advice} Live: the gateway could not be reached.` };
  }
}

function fromDiagnose(answer: Record<string, unknown>): CheckStep[] {
  const raw = Array.isArray(answer.steps) ? answer.steps : Array.isArray(answer.checks) ? answer.checks : [];
  return raw.map((step: Record<string, unknown>, index: number) => {
    const verdictValue = step.verdict ?? step.status ?? step.result ?? step.ok ?? step.passed;
    const verdict: Verdict =
      verdictValue === true || verdictValue === 'pass' || verdictValue === 'ok' || verdictValue === 'passed'
        ? 'pass'
        : verdictValue === false || verdictValue === 'fail' || verdictValue === 'failed' || verdictValue === 'error'
          ? 'fail'
          : verdictValue === 'warn' || verdictValue === 'warning'
            ? 'warn'
            : 'info';
    // The gateway names its steps with slugs; the specification's wording reads better for the
    // five it lists. Further steps (the subscription) keep the gateway's own title.
    const slugIndex = typeof step.name === 'string' ? STEP_SLUGS.indexOf(step.name) : -1;
    const title =
      slugIndex >= 0
        ? STEP_TITLES[slugIndex]!
        : typeof step.name === 'string' || typeof step.title === 'string'
          ? `${index + 1}. ${STEP_NAMES[String(step.name)] ?? String(step.title ?? step.name)}`
          : (STEP_TITLES[index] ?? `${index + 1}. Further check`);
    const detail = [step.detail, step.message, step.explanation, step.fix].filter((value) => typeof value === 'string').join(' ');
    return { title, verdict, detail };
  });
}

function messageOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string } | string };
    return typeof body.error === 'string' ? body.error : (body.error?.message ?? text.slice(0, 200));
  } catch {
    return text.slice(0, 200);
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
