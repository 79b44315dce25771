import { ROUTE_OUT_SUMMARY, type StatusModel, type StatusReport } from '../../notify/status-report.ts';
import { STATUS_PAGE_WORDS, type StatusPageLanguage } from './status-page-words.ts';

/** The status page as one self-contained HTML document (no script, inline style): what /status serves. */
export function renderStatusPage(title: string, report: StatusReport, language: StatusPageLanguage = 'en'): string {
  const words = STATUS_PAGE_WORDS[language];
  const rows = report.models.map(modelRow).join('\n');
  const incidents = report.models.flatMap((model) => model.incidents.map((incident) => ({ ...incident, model })));
  incidents.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const incidentItems = incidents
    .slice(0, 50)
    .map(
      ({ model, startedAt, endedAt, summary }) =>
        `<li><strong>${escapeHtml(model.group)} / ${escapeHtml(model.model)}</strong> ${escapeHtml(startedAt)} → ${endedAt ? escapeHtml(endedAt) : words.ongoing}: ${escapeHtml(summary === ROUTE_OUT_SUMMARY ? words.routeOut : summary)}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:16px;color:#1d2330}
table{border-collapse:collapse;width:100%}th,td{padding:6px 8px;border-bottom:1px solid #e3e6ec;text-align:left;white-space:nowrap}
td.num{text-align:right}.good{color:#11703b}.warn{color:#9a6200}.bad{color:#b3261e}.wrap{overflow-x:auto}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p>${[words.generated(report.generatedAt), words.explanation, words.asJson].map(escapeHtml).join(words.gap)}${words.gap}<a href="/api/status">/api/status</a>${words.stop}</p>
<div class="wrap"><table>
<thead><tr>${words.columns.map((column) => `<th>${escapeHtml(column)}</th>`).join('')}</tr></thead>
<tbody>
${rows || `<tr><td colspan="7">${escapeHtml(words.noModels)}</td></tr>`}
</tbody></table></div>
<h2>${escapeHtml(words.incidents)}</h2>
${incidentItems ? `<ul>${incidentItems}</ul>` : `<p>${escapeHtml(words.none)}</p>`}
</body></html>`;
}

function modelRow(model: StatusModel): string {
  const cell = (value: number | null) => `<td class="num ${grade(value)}">${value === null ? '–' : `${(value * 100).toFixed(2)} %`}</td>`;
  const ttfb = model.ttfbMs.p50 === null ? '–' : `${model.ttfbMs.p50} ms / ${model.ttfbMs.p95} ms`;
  return `<tr><td>${escapeHtml(model.group)}</td><td>${escapeHtml(model.model)}</td>${cell(model.availability['24h'])}${cell(model.availability['7d'])}${cell(model.availability['30d'])}${cell(model.successRate)}<td class="num">${ttfb}</td></tr>`;
}

function grade(value: number | null): string {
  if (value === null) return '';
  return value >= 0.99 ? 'good' : value >= 0.95 ? 'warn' : 'bad';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
