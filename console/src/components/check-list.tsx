import type { CheckStep } from '../lib/model-check.ts';
import { t } from '../i18n/i18n.ts';

const MARK = { pass: 'check.pass', fail: 'check.fail', warn: 'check.warn', info: 'check.info' } as const;

/** The five steps, each with its verdict in words (not colour alone). */
export function CheckList(props: { steps: CheckStep[]; source: string }) {
  return (
    <div class="checklist" aria-live="polite">
      <ol>
        {props.steps.map((step) => (
          <li key={step.title} class={`verdict-${step.verdict}`} data-verdict={step.verdict}>
            <span class="verdict">{t(MARK[step.verdict])}</span>
            <div>
              <strong>{step.title.replace(/^\d+\.\s*/, '')}</strong>
              <p>{step.detail}</p>
            </div>
          </li>
        ))}
      </ol>
      <p class="muted small-text">{t('check.checkedBy', { source: props.source })}</p>
    </div>
  );
}
