import type { AdminData } from './admin-data.ts';
import { call, isMissingEndpoint } from './api.ts';
import type { ClientKind } from '../../../src/domain/client-kinds.ts';
import { clientSetup } from '../../../src/domain/client-setup.ts';
import { loadKeyHolderView } from './key-holder.ts';
import { buildModelMatrix, cellKey, modelsOfGroup } from './model-matrix.ts';
import { suggestName } from './suggest-name.ts';
import { t } from '../i18n/i18n.ts';
import { dateTime } from './format.ts';

const STEP_SLUGS = ['key-group', 'group-has-model', 'model-spelling', 'client-protocol', 'channel-availability'];
/** Catalogue keys of the gateway's further steps' names (the specification's five have their own titles). */
const STEP_NAMES: Record<string, string> = { subscription: 'checkSteps.subscription', 'subscription-status': 'checkSteps.subscription', balance: 'checkSteps.balance' };

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

/** The specification's five steps, in the reader's language (read at render time: the language can change). */
export function stepTitles(): [string, string, string, string, string] {
  return [t('checkSteps.title1'), t('checkSteps.title2'), t('checkSteps.title3'), t('checkSteps.title4'), t('checkSteps.title5')];
}

/**
 * The specification's five-step model check. With a key it asks the gateway (/api/diagnose) and,
 * where that is missing, works the steps out from what the console can read; the address step
 * always calls the chosen client's own model-list endpoint with the key, so it is a live test.
 */
export async function runModelCheck(input: CheckInput): Promise<{ steps: CheckStep[]; source: string }> {
  if (input.account && !input.key) {
    const query = new URLSearchParams({ key: input.account.keyId, model: input.model, client: input.kind });
    const answer = await call<Record<string, unknown>>(`/api/account/diagnose?${query}`, { csrf: input.account.csrf });
    return { steps: fromDiagnose(answer), source: t('checkSteps.sourceAccount') };
  }
  if (input.admin && input.keyId && !input.key) {
    // The operator's check of a chosen key: the gateway's own six checks, not a copy worked out here.
    const query = new URLSearchParams({ model: input.model, client: input.kind });
    const answer = await call<Record<string, unknown>>(`/api/admin/keys/${encodeURIComponent(input.keyId)}/diagnose?${query}`, { bearer: input.admin.token });
    return { steps: fromDiagnose(answer), source: t('checkSteps.sourceOperator') };
  }
  if (input.key) {
    try {
      const query = new URLSearchParams({ model: input.model, client: input.kind });
      const answer = await call<Record<string, unknown>>(`/api/diagnose?${query}`, { bearer: input.key });
      const steps = fromDiagnose(answer);
      if (steps.length > 0) return { steps: await withLiveProbe(steps, input), source: t('checkSteps.sourceGateway') };
    } catch (error) {
      if (!isMissingEndpoint(error)) throw error;
    }
  }
  return { steps: await localCheck(input), source: t('checkSteps.sourceConsole') };
}

async function localCheck(input: CheckInput): Promise<CheckStep[]> {
  const titles = stepTitles();
  let group: string | null = null;
  let models: string[] = [];
  let keyStep: CheckStep;
  let availability: CheckStep = {
    title: titles[4],
    verdict: 'info',
    detail: t('checkSteps.noDiagnose'),
  };

  if (input.admin) {
    const record = input.admin.keys.find((key) => key.id === input.keyId);
    const matrix = buildModelMatrix(input.admin.groups, input.admin.channels, input.admin.prices);
    if (!record) {
      keyStep = { title: titles[0], verdict: 'fail', detail: t('checkSteps.chooseKey') };
    } else {
      group = record.group;
      models = modelsOfGroup(matrix, group).filter((model) => !record.allowedModels || record.allowedModels.includes(model));
      const problem = !record.enabled
        ? t('checkSteps.keyDisabled')
        : record.expiresAt && Date.parse(record.expiresAt) <= Date.now()
          ? t('checkSteps.keyExpired', { date: dateTime(record.expiresAt) })
          : record.balance !== null && record.balance <= 0
            ? t('checkSteps.noBalance')
            : null;
      keyStep = {
        title: titles[0],
        verdict: problem ? 'fail' : 'pass',
        detail: `${t('checkSteps.keyBound', { name: record.name, group })}${problem ? t('checkSteps.butRefused', { problem }) : ''}`,
      };
    }
    const cell = group ? matrix.cells.get(cellKey(group, input.model)) : undefined;
    if (cell) {
      const names = cell.channels.map((channel) => `${channel.name} (${channel.usable ? t('checkSteps.usable') : channel.label})`).join(', ');
      availability = {
        title: titles[4],
        verdict: cell.usable > 0 ? 'pass' : 'fail',
        detail: t('checkSteps.channelsUsable', { usable: cell.usable, total: cell.total, model: input.model, group, names }),
      };
    } else {
      availability = { title: titles[4], verdict: 'fail', detail: t('checkSteps.noChannel', { model: input.model, group: group ?? t('checkSteps.noGroup') }) };
    }
  } else if (input.key) {
    const view = await loadKeyHolderView(input.key);
    group = view.group;
    models = view.models;
    keyStep = {
      title: titles[0],
      verdict: view.problem ? 'fail' : 'pass',
      detail: view.problem
        ? t('checkSteps.keyRefused', { problem: view.problem })
        : group
          ? t('checkSteps.keyInGroup', { group })
          : t('checkSteps.keyAccepted'),
    };
  } else {
    keyStep = { title: titles[0], verdict: 'fail', detail: t('checkSteps.signInFirst') };
  }

  const listed = models.includes(input.model);
  const suggestion = listed ? null : suggestName(input.model, models);
  const groupStep: CheckStep = listed
    ? { title: titles[1], verdict: 'pass', detail: group ? t('checkSteps.groupOffers', { group, model: input.model }) : t('checkSteps.keyGroupOffers', { model: input.model }) }
    : {
        title: titles[1],
        verdict: 'fail',
        detail: models.length
          ? group
            ? t('checkSteps.notInGroup', { group, models: models.join(', ') })
            : t('checkSteps.notInKeyGroup', { models: models.join(', ') })
          : t('checkSteps.noModels'),
      };
  const spellingStep: CheckStep = listed
    ? { title: titles[2], verdict: 'pass', detail: t('checkSteps.exact', { model: input.model }) }
    : suggestion
      ? { title: titles[2], verdict: 'fail', detail: t('checkSteps.didYouMean', { name: suggestion.name, why: suggestion.why }) }
      : { title: titles[2], verdict: 'warn', detail: t('checkSteps.nothingClose') };

  return [keyStep, groupStep, spellingStep, await protocolStep(input), availability];
}

/** Adds what the gateway cannot see from its side: this client kind's address answering with this key. */
async function withLiveProbe(steps: CheckStep[], input: CheckInput): Promise<CheckStep[]> {
  const live = await protocolStep(input);
  return steps.map((step, index) => {
    if (index !== 3) return step;
    const probe = live.detail.slice(live.detail.indexOf(t('checkSteps.live')));
    const verdict = step.verdict === 'fail' || live.verdict === 'fail' ? 'fail' : step.verdict === 'pass' && live.verdict === 'pass' ? 'pass' : live.verdict === 'warn' ? 'warn' : step.verdict;
    return { ...step, verdict, detail: `${step.detail} ${probe}` };
  });
}

async function protocolStep(input: CheckInput): Promise<CheckStep> {
  const setup = clientSetup(input.kind, { root: input.root, model: input.model, altPrefix: input.altPrefix });
  const title = stepTitles()[3];
  const advice = t('checkSteps.enterAddress', { address: setup.address, client: setup.label, note: setup.addressNote });
  const live = (text: string) => `${advice} ${t('checkSteps.live')} ${text}`;
  if (!input.key) return { title, verdict: 'info', detail: `${advice} ${t('checkSteps.pasteKey')}` };
  const headers: Record<string, string> =
    setup.probe.header === 'bearer' ? { authorization: `Bearer ${input.key}` } : { [setup.probe.header]: input.key };
  try {
    const response = await fetch(setup.probe.path, { headers, credentials: 'omit' });
    const text = await response.text();
    if (response.ok) {
      const lists = text.includes(`"${input.model}"`) || text.includes(`"models/${input.model}"`);
      return {
        title,
        verdict: lists ? 'pass' : 'warn',
        detail: live(t(lists ? 'checkSteps.liveLists' : 'checkSteps.liveNotListed', { path: setup.probe.path, status: response.status, model: input.model })),
      };
    }
    return { title, verdict: 'fail', detail: live(t('checkSteps.liveFailed', { path: setup.probe.path, status: response.status, message: messageOf(text) })) };
  } catch {
    return { title, verdict: 'fail', detail: live(t('checkSteps.liveUnreachable')) };
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
    const titles = stepTitles();
    const named = STEP_NAMES[String(step.name)];
    const title =
      slugIndex >= 0
        ? titles[slugIndex]!
        : typeof step.name === 'string' || typeof step.title === 'string'
          ? t('checkSteps.numbered', { n: index + 1, title: named ? t(named) : String(step.title ?? step.name) })
          : (titles[index] ?? t('checkSteps.further', { n: index + 1 }));
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
