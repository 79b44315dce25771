import { useState } from 'preact/hooks';
import { ErrorNotice } from '../components/error-notice.tsx';
import { FormActions } from '../components/form-actions.tsx';
import { call } from '../lib/api.ts';
import { splitList } from '../lib/format.ts';
import { inputValue } from '../lib/input-value.ts';
import type { Channel, Group } from '../lib/types.ts';
import { useSubmit } from '../lib/use-submit.ts';
import { t } from '../i18n/i18n.ts';

/** Each kind, its name (a product name, or a catalogue key where it has words), and its usual address. */
const PROVIDERS = [
  ['openai', 'channelForm.openai', 'https://api.openai.com/v1'],
  ['anthropic', 'Anthropic', 'https://api.anthropic.com'],
  ['gemini', 'Gemini', 'https://generativelanguage.googleapis.com'],
  ['azure', 'Azure OpenAI', 'https://NAME.openai.azure.com'],
  ['vertex', 'Google Vertex AI', 'channelForm.fromRegion'],
  ['bedrock', 'AWS Bedrock', 'channelForm.fromRegion'],
  ['cohere', 'channelForm.cohere', 'https://api.cohere.com'],
  ['jina', 'channelForm.jina', 'https://api.jina.ai'],
] as const;

/** What each kind's secret is, said where the operator types it. */
const SECRET_HINTS: Record<string, string> = {
  azure: 'channelForm.azureSecret',
  vertex: 'channelForm.vertexSecret',
  bedrock: 'channelForm.bedrockSecret',
};

/** Create or edit a channel. The upstream secret is write-only: an edit leaves it as it is unless a new one is typed. */
export function ChannelForm(props: { token: string; groups: Group[]; channel?: Channel; onSaved: () => void; onCancel: () => void }) {
  const existing = props.channel;
  const [name, setName] = useState(existing?.name ?? '');
  const [provider, setProvider] = useState<string>(existing?.provider ?? 'openai');
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState(existing?.models.join(', ') ?? '');
  const [groups, setGroups] = useState<string[]>(existing?.groups ?? ['default']);
  const [modelMap, setModelMap] = useState(
    Object.entries(existing?.modelMap ?? {})
      .map(([from, to]) => `${from}=${to}`)
      .join('\n'),
  );
  const [priority, setPriority] = useState(String(existing?.priority ?? 0));
  const [weight, setWeight] = useState(String(existing?.weight ?? 1));
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [supportsResponses, setSupportsResponses] = useState(existing?.supportsResponses ?? false);
  const [region, setRegion] = useState(existing?.region ?? '');
  const [project, setProject] = useState(existing?.project ?? '');
  const [apiVersion, setApiVersion] = useState(existing?.apiVersion ?? '');
  const regional = provider === 'vertex' || provider === 'bedrock';
  const submission = useSubmit();

  const submit = async (event: Event) => {
    event.preventDefault();
    const map: Record<string, string> = {};
    for (const line of modelMap.split('\n')) {
      if (line.trim() === '') continue;
      const [from, to] = line.split('=').map((part) => part.trim());
      if (!from || !to) return submission.setError(t('channelForm.badMap', { line }));
      map[from] = to;
    }
    const body: Record<string, unknown> = {
      name: name.trim(),
      provider,
      ...(baseUrl.trim() !== '' || !regional ? { baseUrl: baseUrl.trim() } : {}),
      ...(regional ? { region: region.trim() } : {}),
      ...(provider === 'vertex' ? { project: project.trim() } : {}),
      ...(provider === 'azure' && apiVersion.trim() !== '' ? { apiVersion: apiVersion.trim() } : {}),
      models: splitList(models),
      groups,
      modelMap: map,
      priority: Number(priority),
      weight: Number(weight),
      enabled,
      supportsResponses,
    };
    if (apiKey.trim() !== '') body.apiKey = apiKey.trim();
    await submission.run(async () => {
      if (existing) await call(`/api/admin/channels/${encodeURIComponent(existing.id)}`, { method: 'PATCH', body, bearer: props.token });
      else await call('/api/admin/channels', { method: 'POST', body, bearer: props.token });
      props.onSaved();
    });
  };

  const address = PROVIDERS.find(([value]) => value === provider)?.[2] ?? '';
  const placeholder = address.startsWith('channelForm.') ? t(address) : address;
  return (
    <form onSubmit={submit} class="form">
      <label>
        {t('channelForm.name')}
        <input name="name" value={name} onInput={(event) => setName(inputValue(event))} required />
      </label>
      <label>
        {t('channelForm.provider')}
        <select name="provider" value={provider} onChange={(event) => setProvider(inputValue(event))}>
          {PROVIDERS.map(([kind, label]) => (
            <option value={kind} key={kind}>
              {label.startsWith('channelForm.') ? t(label) : label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('channelForm.baseUrl')}
        <input name="baseUrl" type="url" value={baseUrl} placeholder={placeholder} onInput={(event) => setBaseUrl(inputValue(event))} required={!regional} />
        <span class="hint">
          {regional
            ? t('channelForm.regionalHint')
            : t('channelForm.baseHint')}
        </span>
      </label>
      {regional && (
        <label>
          {t('channelForm.region')}
          <input name="region" value={region} placeholder={provider === 'vertex' ? t('channelForm.vertexRegion') : 'us-east-1'} onInput={(event) => setRegion(inputValue(event))} required />
        </label>
      )}
      {provider === 'vertex' && (
        <label>
          {t('channelForm.project')}
          <input name="project" value={project} placeholder="my-gcp-project" onInput={(event) => setProject(inputValue(event))} required />
        </label>
      )}
      {provider === 'azure' && (
        <label>
          {t('channelForm.apiVersion')}
          <input name="apiVersion" value={apiVersion} placeholder="2024-10-21" onInput={(event) => setApiVersion(inputValue(event))} />
          <span class="hint">{t('channelForm.apiVersionHint')}</span>
        </label>
      )}
      <label>
        {t('channelForm.upstreamKey')}
        <input
          name="apiKey"
          type="password"
          autoComplete="off"
          value={apiKey}
          onInput={(event) => setApiKey(inputValue(event))}
          required={!existing}
          placeholder={existing ? t('channelForm.stored', { count: existing.apiKeyCount }) : ''}
        />
        {SECRET_HINTS[provider] && <span class="hint">{t(SECRET_HINTS[provider])}</span>}
      </label>
      <label>
        {t('channelForm.models')}
        <textarea name="models" rows={2} value={models} onInput={(event) => setModels(inputValue(event))} required />
        <span class="hint">{t('channelForm.modelsHint')}</span>
      </label>
      <fieldset>
        <legend>{t('channelForm.groups')}</legend>
        {props.groups.map((group) => (
          <label class="inline" key={group.name}>
            <input
              type="checkbox"
              name="groups"
              value={group.name}
              checked={groups.includes(group.name)}
              onChange={(event) =>
                setGroups((current) =>
                  (event.target as HTMLInputElement).checked ? [...current, group.name] : current.filter((name) => name !== group.name),
                )
              }
            />{' '}
            {group.name}
          </label>
        ))}
      </fieldset>
      <label>
        {t('channelForm.modelMap')}
        <textarea name="modelMap" rows={2} value={modelMap} placeholder="public-name=upstream-name" onInput={(event) => setModelMap(inputValue(event))} />
      </label>
      <div class="row">
        <label>
          {t('channelForm.priority')}
          <input name="priority" type="number" step="1" value={priority} onInput={(event) => setPriority(inputValue(event))} />
          <span class="hint">{t('channelForm.priorityHint')}</span>
        </label>
        <label>
          {t('channelForm.weight')}
          <input name="weight" type="number" min="0" step="1" value={weight} onInput={(event) => setWeight(inputValue(event))} />
          <span class="hint">{t('channelForm.weightHint')}</span>
        </label>
      </div>
      <label class="inline">
        <input type="checkbox" name="enabled" checked={enabled} onChange={(event) => setEnabled((event.target as HTMLInputElement).checked)} /> {t('channelForm.enabled')}
      </label>
      {provider === 'openai' && (
        <label class="inline">
          <input
            type="checkbox"
            name="supportsResponses"
            checked={supportsResponses}
            onChange={(event) => setSupportsResponses((event.target as HTMLInputElement).checked)}
          />{' '}
          {t('channelForm.responses')}
        </label>
      )}
      {submission.error && <ErrorNotice>{submission.error}</ErrorNotice>}
      <FormActions busy={submission.busy} submitLabel={existing ? t('channelForm.save') : t('channelForm.create')} onCancel={props.onCancel} />
    </form>
  );
}
