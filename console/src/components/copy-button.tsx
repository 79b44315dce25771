import { useState } from 'preact/hooks';
import { t } from '../i18n/i18n.ts';

/** Copies text; says whether it worked, since clipboard access can be refused. */
export function CopyButton(props: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2500);
  };
  return (
    <button type="button" class="small" onClick={copy} aria-live="polite">
      {state === 'copied' ? t('common.copied') : state === 'failed' ? t('common.copyFailed') : (props.label ?? t('common.copy'))}
    </button>
  );
}

/** A block of copy-ready text with its copy button. */
export function CopyBlock(props: { text: string; label: string }) {
  return (
    <div class="copy-block">
      <div class="copy-head">
        <span>{props.label}</span>
        <CopyButton text={props.text} label={t('common.copyThing', { thing: props.label.toLowerCase() })} />
      </div>
      <pre tabIndex={0}>
        <code>{props.text}</code>
      </pre>
    </div>
  );
}
