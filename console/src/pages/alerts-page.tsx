import { useState } from 'preact/hooks';
import { AsyncView } from '../components/async-view.tsx';
import { PageHead } from '../components/page-head.tsx';
import { call } from '../lib/api.ts';
import { dateTime } from '../lib/format.ts';
import { ADMIN_ROLES, CHANNEL_TYPES, type AlertChannel, type AlertDelivery, type AlertEvent, type AlertRule } from '../lib/notify-types.ts';
import { bearerOf, type Session } from '../lib/session.ts';
import { useResource } from '../lib/use-resource.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

interface AlertsData {
  channels: AlertChannel[];
  rules: AlertRule[];
  dead: AlertDelivery[];
  events: AlertEvent[];
}

/** Alerts (issue 30): where messages go, which events send them, and the messages that could not be delivered. */
export function AlertsPage(props: { session: Session }) {
  const bearer = bearerOf(props.session);
  const get = <T,>(path: string) => call<{ data: T[] }>(`/api/admin${path}`, { bearer }).then((answer) => answer.data);
  const data = useResource(
    async (): Promise<AlertsData> => {
      const [channels, rules, dead, events] = await Promise.all([
        get<AlertChannel>('/notification-channels'),
        get<AlertRule>('/notification-rules'),
        get<AlertDelivery>('/notification-deliveries?status=dead'),
        get<AlertEvent>('/notification-events'),
      ]);
      return { channels, rules, dead, events };
    },
    [bearer],
  );
  return (
    <section>
      <PageHead title={t('alerts.title')} onRefresh={data.reload} />
      <AsyncView resource={data} what={t('alerts.what')}>
        {(view) => <AlertsView view={view} bearer={bearer} reload={data.reload} />}
      </AsyncView>
    </section>
  );
}

function AlertsView({ view, bearer, reload }: { view: AlertsData; bearer: string; reload: () => void }) {
  const submit = useSubmit();
  const [tested, setTested] = useState<Record<string, string>>({});
  const [generatedSecret, setGeneratedSecret] = useState<string | null>(null);
  const admin = (method: string, path: string, body?: unknown) => call<any>(`/api/admin${path}`, { method, bearer, ...(body === undefined ? {} : { body }) });
  const test = (channel: AlertChannel) =>
    submit.run(async () => {
      const answer = await admin('POST', `/notification-channels/${channel.id}/test`);
      setTested((current) => ({ ...current, [channel.id]: answer.delivered ? t('alerts.delivered') : t('alerts.notDelivered', { error: answer.error }) }));
    });
  const names = new Map(view.channels.map((channel) => [channel.id, channel.name]));
  return (
    <>
      {submit.error && (
        <p class="notice error" role="alert">
          {submit.error}
        </p>
      )}
      <h2>{t('alerts.channels')}</h2>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('alerts.name')}</th>
              <th scope="col">{t('alerts.type')}</th>
              <th scope="col">{t('alerts.address')}</th>
              <th scope="col">{t('alerts.test')}</th>
            </tr>
          </thead>
          <tbody>
            {view.channels.map((channel) => (
              <tr key={channel.id} data-alert-channel={channel.name}>
                <td>{channel.name}</td>
                <td>{channel.type}</td>
                <td class="small-text">{addressOf(channel)}</td>
                <td>
                  <button type="button" class="small" disabled={submit.busy} onClick={() => void test(channel)}>
                    {t('alerts.sendTest')}
                  </button>{' '}
                  <span class="small-text">{tested[channel.id]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {generatedSecret && (
        <p class="notice" role="status">
          {t('alerts.secretNow')} <code data-generated-secret>{generatedSecret}</code>
        </p>
      )}
      <ChannelForm
        busy={submit.busy}
        onSave={(body) =>
          submit.run(async () => {
            const created = await admin('POST', '/notification-channels', body);
            setGeneratedSecret(typeof created.secret === 'string' ? created.secret : null);
            reload();
          })
        }
      />

      <h2>{t('alerts.rules')}</h2>
      <ul>
        {view.rules.map((rule) => (
          <li key={rule.id} data-alert-rule={rule.event}>
            <code>{rule.event}</code> {rule.threshold === null ? t('alerts.defaultThreshold') : t('alerts.at', { threshold: rule.threshold })} → {rule.channels.map((id) => names.get(id) ?? id).join(', ')} ({rule.audience}){' '}
            <button type="button" class="small" onClick={() => void submit.run(async () => void (await admin('DELETE', `/notification-rules/${rule.id}`), reload()))}>
              {t('alerts.remove')}
            </button>
          </li>
        ))}
      </ul>
      <RuleForm events={view.events} channels={view.channels} busy={submit.busy} onSave={(body) => submit.run(async () => void (await admin('POST', '/notification-rules', body), reload()))} />

      <h2>{t('alerts.dead')}</h2>
      {view.dead.length === 0 ? (
        <p class="muted">{t('alerts.noDead')}</p>
      ) : (
        <ul>
          {view.dead.map((delivery) => (
            <li key={delivery.id} data-dead-letter={delivery.id}>
              {dateTime(delivery.createdAt)} <code>{delivery.event}</code>{' '}
              {t('alerts.deadLine', { channel: names.get(delivery.channelId) ?? delivery.channelId, error: delivery.lastError, attempts: delivery.attempts })}{' '}
              <button type="button" class="small" onClick={() => void submit.run(async () => void (await admin('POST', `/notification-deliveries/${delivery.id}/retry`), reload()))}>
                {t('alerts.retry')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Where a channel sends: its address, its recipients, and the admin roles an e-mail channel also reaches. */
function addressOf(channel: AlertChannel): string {
  const parts = [channel.url ?? channel.to, channel.roles?.length ? t('alerts.toRoles', { roles: channel.roles.join(', ') }) : null].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : '–';
}

function ChannelForm(props: { busy: boolean; onSave: (body: Record<string, unknown>) => Promise<void> }) {
  const [fields, setFields] = useState<Record<string, string>>({ type: 'webhook', name: '', url: '', secret: '', to: '', role: '' });
  const set = (name: string) => (event: Event) => setFields({ ...fields, [name]: (event.target as HTMLInputElement).value });
  const body = () => {
    const { role, ...rest } = fields;
    const filled: Record<string, unknown> = Object.fromEntries(Object.entries(rest).filter(([, value]) => value.trim() !== ''));
    if (fields.type === 'email' && role) filled.roles = [role];
    return filled;
  };
  return (
    <form
      class="card inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void props.onSave(body());
      }}
    >
      <label>
        {t('alerts.type')}{' '}
        <select value={fields.type} onChange={set('type')}>
          {CHANNEL_TYPES.map((type) => (
            <option key={type}>{type}</option>
          ))}
        </select>
      </label>
      <label>
        {t('alerts.name')} <input value={fields.name} onInput={set('name')} required />
      </label>
      <label>
        {t('alerts.address')} <input value={fields.url} onInput={set('url')} placeholder="https://…" />
      </label>
      <label>
        {t('alerts.secret')} <input type="password" value={fields.secret} onInput={set('secret')} autocomplete="off" />
      </label>
      <label>
        {t('alerts.to')} <input value={fields.to} onInput={set('to')} />
      </label>
      {fields.type === 'email' && (
        <label>
          {t('alerts.roles')}{' '}
          <select value={fields.role} onChange={set('role')} data-alert-role>
            <option value="">{t('alerts.noRole')}</option>
            {ADMIN_ROLES.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        </label>
      )}
      <button type="submit" class="primary" disabled={props.busy}>
        {t('alerts.addChannel')}
      </button>
    </form>
  );
}

function RuleForm(props: { events: AlertEvent[]; channels: AlertChannel[]; busy: boolean; onSave: (body: unknown) => Promise<void> }) {
  const [event, setEvent] = useState(props.events[0]?.event ?? 'wallet.low');
  const [threshold, setThreshold] = useState('');
  const [picked, setChannel] = useState('');
  // The list may gain its first channel after this form appeared: default to it then.
  const channel = props.channels.some((entry) => entry.id === picked) ? picked : (props.channels[0]?.id ?? '');
  const [audience, setAudience] = useState('operator');
  const chosen = props.events.find((entry) => entry.event === event);
  return (
    <form
      class="card inline-form"
      onSubmit={(submitted) => {
        submitted.preventDefault();
        void props.onSave({ event, channels: [channel], audience, ...(threshold === '' ? {} : { threshold: Number(threshold) }) });
      }}
    >
      <label>
        {t('alerts.event')}{' '}
        <select value={event} onChange={(change) => setEvent((change.target as HTMLSelectElement).value)}>
          {props.events.map((entry) => (
            <option key={entry.event}>{entry.event}</option>
          ))}
        </select>
      </label>
      <label>
        {chosen?.unit ? t('alerts.thresholdUnit', { unit: chosen.unit, value: chosen.defaultThreshold }) : t('alerts.threshold')}{' '}
        <input value={threshold} inputMode="decimal" disabled={!chosen?.unit} onInput={(change) => setThreshold((change.target as HTMLInputElement).value)} />
      </label>
      <label>
        {t('alerts.channel')}{' '}
        <select value={channel} onChange={(change) => setChannel((change.target as HTMLSelectElement).value)}>
          {props.channels.map((entry) => (
            <option key={entry.id} value={entry.id}>
              {entry.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('alerts.audience')}{' '}
        <select value={audience} onChange={(change) => setAudience((change.target as HTMLSelectElement).value)}>
          <option value="operator">{t('alerts.operators')}</option>
          <option value="account">{t('alerts.accountHolder')}</option>
        </select>
      </label>
      <button type="submit" class="primary" disabled={props.busy || channel === ''}>
        {t('alerts.addRule')}
      </button>
    </form>
  );
}
