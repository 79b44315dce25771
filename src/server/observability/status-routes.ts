import type { FastifyInstance, FastifyReply } from 'fastify';
import { GatewayError } from '../../core/gateway-error.ts';
import { DEFAULT_STATUS_PAGE, readStatusPageSettings, type StatusPageSettings } from '../../notify/status-page-settings.ts';
import { buildStatusReport, type StatusReport } from '../../notify/status-report.ts';
import { resolveUpstreamModel } from '../../relay/channels/resolve-upstream-model.ts';
import type { AppDeps } from '../app-deps.ts';
import { renderStatusPage } from './status-page-html.ts';
import { STATUS_PAGE_WORDS, statusPageLanguage } from './status-page-words.ts';

/** Uptime monitors poll; the figures are recomputed at most this often per instance. */
const REPORT_TTL_MS = 30_000;
const LOOK_BACK_MS = 30 * 86_400_000;

/**
 * The public status page (issue 30): `GET /status` (HTML) and `GET /api/status` (JSON for uptime
 * monitors), both 404 until the operator turns them on (`statusPage: {enabled: true}` in
 * `PATCH /api/admin/account-settings`). They name groups and models only, never a key or an
 * upstream, and channels only when the operator chose `showChannelNames`.
 */
export function registerStatusRoutes(app: FastifyInstance, deps: AppDeps): void {
  let cached: { at: number; showChannelNames: boolean; report: StatusReport } | undefined;

  const report = async (settings: StatusPageSettings): Promise<StatusReport> => {
    const now = deps.runtime.now();
    if (cached && now - cached.at < REPORT_TTL_MS && cached.showChannelNames === settings.showChannelNames) return cached.report;
    await deps.usageWriter.flush();
    const [figures, history] = await Promise.all([deps.store.usage.statusFigures(now), deps.store.circuitHistory.since(now - LOOK_BACK_MS)]);
    const routes = [...deps.snapshot.current.routes].flatMap(([group, models]) =>
      [...models].map(([model, channels]) => ({
        group,
        model,
        channels: channels.map((channel) => ({ id: channel.id, name: channel.name, upstreamModel: resolveUpstreamModel(channel, model) })),
      })),
    );
    routes.sort((a, b) => a.group.localeCompare(b.group) || a.model.localeCompare(b.model));
    const built = buildStatusReport({ now, routes, figures, history, showChannelNames: settings.showChannelNames });
    cached = { at: now, showChannelNames: settings.showChannelNames, report: built };
    return built;
  };

  const enabled = async (): Promise<StatusPageSettings> => {
    const settings = await readStatusPageSettings(deps.store.settings);
    if (!settings.enabled) throw new GatewayError('not_found', 'There is no status page here.');
    return settings;
  };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'public, max-age=30').header('access-control-allow-origin', '*');

  app.get('/api/status', async (_request, reply) => {
    const settings = await enabled();
    noStore(reply);
    return report(settings);
  });
  app.get('/status', async (request, reply) => {
    const settings = await enabled();
    const language = statusPageLanguage((request.query as Record<string, unknown>).lang, request.headers['accept-language']);
    noStore(reply)
      .header('vary', 'accept-language')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
      .header('x-content-type-options', 'nosniff')
      .type('text/html; charset=utf-8');
    // The operator's own title is theirs to word; the default one is ours, so it follows the language.
    const title = settings.title === DEFAULT_STATUS_PAGE.title ? STATUS_PAGE_WORDS[language].defaultTitle : settings.title;
    return renderStatusPage(title, await report(settings), language);
  });
}
