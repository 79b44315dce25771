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
      <PageHead title="Redemption codes" onRefresh={data.reload} />
      {batch && <BatchPanel batch={batch} onDismiss={() => setBatch(null)} />}
      <AsyncView resource={data} what="redemption codes">
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
              <h2>Codes issued</h2>
              <div class="filters">
                <label>
                  State
                  <select name="state" value={filter} onChange={(event) => setFilter(inputValue(event))}>
                    <option value="">Any</option>
                    <option value="unused">Unused</option>
                    <option value="used">Used</option>
                    <option value="expired">Expired</option>
                  </select>
                </label>
              </div>
              {loaded.codes.length === 0 ? (
                <p class="notice">No codes yet. Generate a batch above; the codes themselves are shown only then.</p>
              ) : shown.length === 0 ? (
                <p class="notice">No {filter} codes.</p>
              ) : (
                <div class="table-wrap">
                  <table class="stacked">
                    <caption class="visually-hidden">Redemption codes</caption>
                    <thead>
                      <tr>
                        <th scope="col">Kind</th>
                        <th scope="col">Value</th>
                        <th scope="col">State</th>
                        <th scope="col">Created</th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((code, index) => {
                        const state = codeState(code, users);
                        return (
                          <tr key={code.id ?? index} data-code-state={state.state}>
                            <td data-label="Kind">
                              {code.kind}
                            </td>
                            <td data-label="Value">{code.kind === 'balance' ? usd(code.amount ?? null) : `plan ${code.planName ?? refName(code.plan ?? null, plans)}`}</td>
                            <td data-label="State">
                              <span class={`badge ${state.state === 'unused' ? 'ok' : state.state === 'used' ? 'warn' : 'down'}`}>{state.state}</span>{' '}
                              <span class="small-text">{state.detail}</span>
                            </td>
                            <td class="small-text" data-label="Created">
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
    if (!Number.isInteger(howMany) || howMany < 1 || howMany > 1000) return submission.setError('Generate between 1 and 1000 codes at a time.');
    const value = moneyInput(amount);
    if (kind === 'balance' && (value === undefined || !Number.isFinite(value) || value <= 0)) return submission.setError('A balance code adds a positive amount of USD.');
    if (kind === 'subscription' && !plan) return submission.setError('Create a plan first: a subscription code grants one.');
    const expiry = expiresAt ? new Date(expiresAt).toISOString() : null;
    await submission.run(async () => {
      const body = kind === 'balance' ? { kind, amount: value, count: howMany } : { kind, plan, count: howMany };
      const answer = await props.api.generateCodes({ ...body, ...(expiry ? { expiresAt: expiry } : {}) });
      const planName = props.plans.find((entry) => entry.id === plan)?.name ?? plan;
      props.onGenerated({ codes: answer.codes, what: kind === 'balance' ? `${usd(value ?? 0)} wallet credit` : `plan ${planName}`, expiresAt: expiry });
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-label="Generate codes">
      <h2>Generate a batch</h2>
      <div class="row wrap">
        <label>
          Kind
          <select name="kind" value={kind} onChange={(event) => setKind(inputValue(event) as 'balance' | 'subscription')}>
            <option value="balance">Wallet credit (balance)</option>
            <option value="subscription">Subscription to a plan</option>
          </select>
        </label>
        {kind === 'balance' ? (
          <label>
            Amount (USD)
            <input name="amount" type="number" min="0.01" step="0.01" value={amount} onInput={(event) => setAmount(inputValue(event))} />
          </label>
        ) : (
          <label>
            Plan
            <select name="plan" value={plan} onChange={(event) => setPlan(inputValue(event))}>
              {props.plans.length === 0 && <option value="">No plans yet</option>}
              {props.plans.map((entry) => (
                <option key={entry.id} value={entry.id}>
                  {entry.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          How many
          <input name="count" type="number" min="1" max="1000" step="1" value={count} onInput={(event) => setCount(inputValue(event))} />
        </label>
        <label>
          Expires (optional)
          <input name="expiresAt" type="datetime-local" value={expiresAt} onInput={(event) => setExpiresAt(inputValue(event))} />
        </label>
      </div>
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <div class="actions">
        <button type="submit" class="primary" disabled={submission.busy}>
          {submission.busy ? 'Generating…' : 'Generate codes'}
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
          {batch.codes.length} code{batch.codes.length === 1 ? '' : 's'} for {batch.what}.
        </strong>{' '}
        Copy or download them now: they are shown this once and stored only as hashes.
      </p>
      <div class="code-list" tabIndex={0} aria-label="The new codes" data-codes>
        {batch.codes.map((code) => (
          <div key={code}>{code}</div>
        ))}
      </div>
      <div class="actions">
        <CopyButton text={all} label="Copy all" />
        <button type="button" class="small" onClick={download}>
          Download CSV
        </button>
        <button type="button" class="small" onClick={props.onDismiss}>
          I have saved them — hide
        </button>
      </div>
    </div>
  );
}
