import { formatInstant, formatLongDate, osloToday } from '@minside/domain';

/** "02.03.2026 kl. 11.00" (Europe/Oslo) for consent history and exports: the house instant format. */
export const formatDateTime = formatInstant;

/** The Oslo day of an instant, "2. mars 2026". */
export function formatDate(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : formatLongDate(osloToday(at));
}

/** Sizes of a download, in the units people know. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${(bytes / (1024 * 1024)).toLocaleString('nb-NO', { maximumFractionDigits: 1 })} MB`;
}
