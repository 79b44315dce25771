import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNotice } from '../components/error-notice.tsx';
import { PageHead } from '../components/page-head.tsx';
import { codeState, csvEscape, indexById, moneyInput, refName } from '../lib/account-format.ts';
import { type AdminPlanView as Plan } from '../../../src/domain/account-admin-api.ts';
import { adminApi, type AdminApi } from '../lib/accounts-admin.ts';
import { dateTime, usd } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { statusName } from '../i18n/status-name.ts';
import { t } from '../i18n/i18n.ts';

interface Batch {
  codes: string[];
  what: string;
  expiresAt: string | null;
}

/** Redemption codes: generate a batch (shown once, copy all, CSV), and see which were used. */
export function CodesPage(props: { session: Session }) {
  const token = bearerOf(props.session);
  const api = adminApi(token);
  const data = useResource(async () => {
    const [codes, plans, users] = await Promise.all([api.codes(), api.plans(), api.users()]);
    return { codes, plans, users };
  }, [token]);
  // The batch lives only in this component's memory until dismissed: the gateway keeps hashes.
  const [batch, setBatch] = useState<Batch | null>(null);
  const [filter, setFilter] = useState('');

  return (
    <section>
      <PageHead title={t('codes.title')} onRefresh={data.reload} />
      {batch && <BatchPanel batch={batch} onDismiss={() => setBatch(null)} />}
      <AsyncView resource={data} what={t('codes.what')}>
        {(loaded) => {
          const plans = indexById(loaded.plans);
          const users = indexById(loaded.users);
          const shown = loaded.codes.filter((code) => !filter || codeState(code, users).state === filter);
          return (
            <>
              <GenerateForm
                api={api}
                plans={loaded.plans}
                onGenerated={(next) => {
                  setBatch(next);
                  data.reload();
                }}
              />
              <h2>{t('codes.issued')}</h2>
              <div class="filters">
                <label>
                  {t('codes.state')}
                  <select name="state" value={filter} onChange={(event) => setFilter(inputValue(event))}>
                    <option value="">{t('codes.any')}</option>
                    <option value="unused">{t('codes.unused')}</option>
                    <option value="used">{t('codes.used')}</option>
                    <option value="expired">{t('codes.expired')}</option>
                  </select>
                </label>
              </div>
              {loaded.codes.length === 0 ? (
                <p class="notice">{t('codes.none')}</p>
              ) : shown.length === 0 ? (
                <p class="notice">{t('codes.noneInState', { state: statusName(filter) })}</p>
              ) : (
                <div class="table-wrap">
                  <table class="stacked">
                    <caption class="visually-hidden">{t('codes.caption')}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t('codes.kind')}</th>
                        <th scope="col">{t('codes.value')}</th>
                        <th scope="col">{t('codes.state')}</th>
                        <th scope="col">{t('codes.created')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((code, index) => {
                        const state = codeState(code, users);
                        return (
                          <tr key={code.id ?? index} data-code-state={state.state}>
                            <td data-label={t('codes.kind')}>
                              {code.kind}
                            </td>
                            <td data-label={t('codes.value')}>{code.kind === 'balance' ? usd(code.amount ?? null) : t('codes.plan', { name: code.planName ?? refName(code.plan ?? null, plans) })}</td>
                            <td data-label={t('codes.state')}>
                              <span class={`badge ${state.state === 'unused' ? 'ok' : state.state === 'used' ? 'warn' : 'down'}`}>{statusName(state.state)}</span>{' '}
                              <span class="small-text">{state.detail}</span>
                            </td>
                            <td class="small-text" data-label={t('codes.created')}>
                              {dateTime(code.createdAt ?? null)}
                            </td>
                          </tr>
                        );
                      })}
                    </tbody>
                  </table>
                </div>
              )}
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

function GenerateForm(props: { api: AdminApi; plans: Plan[]; onGenerated: (batch: Batch) => void }) {
  const [kind, setKind] = useState<'balance' | 'subscription'>('balance');
  const [amount, setAmount] = useState('10');
  const [plan, setPlan] = useState(props.plans[0]?.id ?? '');
  const [count, setCount] = useState('10');
  const [expiresAt, setExpiresAt] = useState('');
  const submission = useSubmit();
  const submit = async (event: Event) => {
    event.preventDefault();
    const howMany = Number(count);
    if (!Number.isInteger(howMany) || howMany < 1 || howMany > 1000) return submission.setError(t('codes.badCount'));
    const value = moneyInput(amount);
    if (kind === 'balance' && (value === undefined || !Number.isFinite(value) || value <= 0)) return submission.setError(t('codes.badAmount'));
    if (kind === 'subscription' && !plan) return submission.setError(t('codes.needPlan'));
    const expiry = expiresAt ? new Date(expiresAt).toISOString() : null;
    await submission.run(async () => {
      const body = kind === 'balance' ? { kind, amount: value, count: howMany } : { kind, plan, count: howMany };
      const answer = await props.api.generateCodes({ ...body, ...(expiry ? { expiresAt: expiry } : {}) });
      const planName = props.plans.find((entry) => entry.id === plan)?.name ?? plan;
      props.onGenerated({ codes: answer.codes, what: kind === 'balance' ? t('codes.walletCredit', { amount: usd(value ?? 0) }) : t('codes.plan', { name: planName }), expiresAt: expiry });
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-label={t('codes.generate')}>
      <h2>{t('codes.generateBatch')}</h2>
      <div class="row wrap">
        <label>
          {t('codes.kind')}
          <select name="kind" value={kind} onChange={(event) => setKind(inputValue(event) as 'balance' | 'subscription')}>
            <option value="balance">{t('codes.kindBalance')}</option>
            <option value="subscription">{t('codes.kindSubscription')}</option>
          </select>
        </label>
        {kind === 'balance' ? (
          <label>
            {t('codes.amount')}
            <input name="amount" type="number" min="0.01" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
          </label>
        ) : (
          <label>
            {t('codes.planLabel')}
            <select name="plan" value={plan} onChange={(event) => setPlan(inputValue(event))}>
              {props.plans.length === 0 && <option value="">{t('codes.noPlans')}</option>}
              {props.plans.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          {t('codes.howMany')}
          <input name="count" type="number" min="1" max="1000" step="1" value={count} onInput={(event) => setCount(inputValue(event))} />
        </label>
        <label>
          {t('codes.expires')}
          <input name="expiresAt" type="datetime-local" value={expiresAt} onInput={(event) => setExpiresAt(inputValue(event))} />
        </label>
      </div>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={submission.busy}>
          {submission.busy ? t('codes.generating') : t('codes.generate')}
        </button>
      </div>
    </form>
  );
}

function BatchPanel(props: { batch: Batch; onDismiss: () => void }) {
  const { batch } = props;
  const all = batch.codes.join('\n');
  const csv = ['code,value,expires_at', ...batch.codes.map((code) => [code, batch.what, batch.expiresAt ?? ''].map(csvEscape).join(','))].join('\n') + '\n';
  const download = () => {
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `redemption-codes-${new Date().toISOString().slice(0, 19).replace(/:/g, '')}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div class="notice secret" role="alert" data-code-batch>
      <p>
        <strong>
          {t('codes.batch', { count: batch.codes.length, what: batch.what })}
        </strong>{' '}
        {t('codes.copyNow')}
      </p>
      <div class="code-list" tabIndex={0} aria-label={t('codes.newCodes')} data-codes>
        {batch.codes.map((code) => (
          <div key={code}>{code}</div>
        ))}
      </div>
      <div class="actions">
        <CopyButton text={all} label={t('codes.copyAll')} />
        <button type="button" class="small" onClick={download}>
          {t('codes.download')}
        </button>
        <button type="button" class="small" onClick={props.onDismiss}>
          {t('codes.hide')}
        </button>
      </div>
    </div>
  );
}
