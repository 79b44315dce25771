/**
 * The status page's words in the console's two languages (issue 30, item 5). The page is served
 * without script, so the language is chosen on the server: `?lang=en|zh-CN`, then the browser's
 * `Accept-Language` (in its q order), then English; the same tags as the console's
 * `console/src/i18n/language.ts` (Traditional Chinese is not served Simplified by guess).
 * `/api/status` stays English: monitors parse it.
 */
import { DEFAULT_STATUS_PAGE } from '../../notify/status-page-settings.ts';
import { ROUTE_OUT_SUMMARY } from '../../notify/status-report.ts';

export type StatusPageLanguage = 'en' | 'zh-CN';

export interface StatusPageWords {
  /** Shown when the operator kept the default title. */
  defaultTitle: string;
  generated: (at: string) => string;
  explanation: string;
  asJson: string;
  /** Between sentences (a space in English, nothing after Chinese full stops) and at the end. */
  gap: string;
  stop: string;
  columns: [string, string, string, string, string, string, string];
  noModels: string;
  incidents: string;
  none: string;
  ongoing: string;
  /** The summary of an incident when channel names are hidden (status-report's generic one). */
  routeOut: string;
}

export const STATUS_PAGE_WORDS: Readonly<Record<StatusPageLanguage, StatusPageWords>> = {
  en: {
    defaultTitle: DEFAULT_STATUS_PAGE.title,
    generated: (at) => `Generated ${at}.`,
    explanation: "Availability counts requests the service answered, leaving out those refused for the caller's own mistake.",
    asJson: 'Also as JSON:',
    gap: ' ',
    stop: '.',
    columns: ['Group', 'Model', '24 h', '7 d', '30 d', 'Success (24 h)', 'TTFB p50 / p95'],
    noModels: 'No models are served yet.',
    incidents: 'Incidents (30 days)',
    none: 'None.',
    ongoing: 'ongoing',
    routeOut: ROUTE_OUT_SUMMARY,
  },
  'zh-CN': {
    defaultTitle: '服务状态',
    generated: (at) => `生成于 ${at}。`,
    explanation: '可用率统计服务已应答的请求，不含因调用方自身错误而被拒绝的请求。',
    asJson: 'JSON 格式：',
    gap: '',
    stop: '。',
    columns: ['分组', '模型', '24 小时', '7 天', '30 天', '成功率（24 小时）', '首字节时间 p50 / p95'],
    noModels: '暂无提供服务的模型。',
    incidents: '故障记录（30 天）',
    none: '无。',
    ongoing: '进行中',
    routeOut: '为该模型提供服务的一条线路中断；请求已转发到其他可用线路（如有）',
  },
};

function matchTag(tag: string): StatusPageLanguage | null {
  const lower = tag.trim().toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-cn') || lower.startsWith('zh-hans') || lower === 'zh-sg') return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}

/** `?lang=` first, then `Accept-Language` by descending q, then English. */
export function statusPageLanguage(query: unknown, acceptLanguage: string | undefined): StatusPageLanguage {
  if (typeof query === 'string') {
    const chosen = matchTag(query);
    if (chosen) return chosen;
  }
  const accepted = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';');
      const q = Number(
        parameters
          .find((parameter) => parameter.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { tag, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of accepted) {
    const match = matchTag(tag);
    if (match) return match;
  }
  return 'en';
}
