/** The jobs' schedules as configuration writes them (JOBS_SCHEDULE_OVERRIDES), parsed where the rest of the configuration is. */

/**
 * When a job is due: every `ms` milliseconds (buckets aligned to the epoch, so every instance
 * computes the same ones), or once a day at a wall-clock time in Europe/Oslo.
 */
export type Schedule = { kind: 'every'; ms: number } | { kind: 'daily'; at: string };

export const scheduleUnits: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };
const durationPattern = /^(\d+)(ms|s|m|h)$/;
const dailyPattern = /^daily@([01]\d|2[0-3]):([0-5]\d)$/;

/** `30s`, `5m`, `1h`, `500ms`, or `daily@03:00` (Europe/Oslo). Throws a message naming the problem. */
export function parseSchedule(text: string): Schedule {
  const value = text.trim();
  const daily = dailyPattern.exec(value);
  if (daily) return { kind: 'daily', at: `${daily[1]}:${daily[2]}` };
  const duration = durationPattern.exec(value);
  if (!duration) throw new Error(`"${value}" is not a schedule (use e.g. 500ms, 30s, 5m, 1h or daily@03:00)`);
  const ms = Number(duration[1]) * (scheduleUnits[duration[2] ?? ''] ?? Number.NaN);
  // Below 100 ms the claim itself would be most of the work.
  if (!Number.isSafeInteger(ms) || ms < 100 || ms > 7 * 24 * 3_600_000) throw new Error(`"${value}" must be between 100ms and 168h`);
  return { kind: 'every', ms };
}

/** JOBS_SCHEDULE_OVERRIDES: `name=schedule,name=schedule`, e.g. `mail-outbox=10s,billing-renewals=daily@04:30`. */
export function parseScheduleOverrides(text: string | undefined): Map<string, Schedule> {
  const overrides = new Map<string, Schedule>();
  for (const entry of (text ?? '').split(',')) {
    if (!entry.trim()) continue;
    const [name, schedule, ...rest] = entry.split('=');
    if (!name?.trim() || schedule === undefined || rest.length > 0) throw new Error(`"${entry.trim()}" is not name=schedule`);
    overrides.set(name.trim(), parseSchedule(schedule));
  }
  return overrides;
}
