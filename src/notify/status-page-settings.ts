import type { SettingsRepository } from '../store/store.ts';

const SETTING = 'status-page';

/** The public status page (issue 30): off unless the operator turns it on; channel names only if they choose. */
export interface StatusPageSettings {
  enabled: boolean;
  showChannelNames: boolean;
  title: string;
}

export const DEFAULT_STATUS_PAGE: StatusPageSettings = { enabled: false, showChannelNames: false, title: 'Service status' };

export async function readStatusPageSettings(settings: SettingsRepository): Promise<StatusPageSettings> {
  const text = await settings.get(SETTING);
  if (text === undefined) return DEFAULT_STATUS_PAGE;
  try {
    return { ...DEFAULT_STATUS_PAGE, ...(JSON.parse(text) as Partial<StatusPageSettings>) };
  } catch {
    return DEFAULT_STATUS_PAGE;
  }
}

/** Merges a change into the stored settings; returns the result. */
export async function saveStatusPageSettings(settings: SettingsRepository, change: Partial<StatusPageSettings>): Promise<StatusPageSettings> {
  const next = { ...(await readStatusPageSettings(settings)), ...change };
  await settings.set(SETTING, JSON.stringify(next));
  return next;
}
