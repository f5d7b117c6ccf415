import { fieldSourceText, formatLongDate, isLockedField, lockedFieldMessage, osloToday, type ProfileField, type ProfileResponse } from '@minside/domain';

/**
 * The hint under a profile field (issue 24): where its value came from and when ("Bekreftet fra
 * Vipps 26. november 2026."), and for a locked one why and where to change it; else the field's
 * own hint (`plain`).
 */
export function sourceHint(profile: Pick<ProfileResponse, 'sources'>, field: ProfileField, plain?: string): string | undefined {
  const source = profile.sources[field];
  if (!source) return plain;
  const from = fieldSourceText(source);
  const said = `${from.charAt(0).toUpperCase()}${from.slice(1)} ${formatLongDate(osloToday(new Date(source.recordedAt)))}.`;
  return isLockedField(source) ? `${said} ${lockedFieldMessage(field, source)}` : [said, plain].filter(Boolean).join(' ');
}
