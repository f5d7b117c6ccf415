import { addDays, osloInstantOf, osloToday } from '@minside/domain';
import { parseSchedule, scheduleUnits, type Schedule } from '../config/schedule.ts';

export const every = (text: string): Schedule => parseSchedule(text);
export const dailyAt = (at: string): Schedule => parseSchedule(`daily@${at}`);

export function describeSchedule(schedule: Schedule): string {
  if (schedule.kind === 'daily') return `daily ${schedule.at} Europe/Oslo`;
  const [unit, size] = (['h', 'm', 's'] as const).map((u) => [u, scheduleUnits[u] ?? 1] as const).find(([, size]) => schedule.ms % size === 0) ?? ['ms', 1];
  return `every ${schedule.ms / size}${unit}`;
}

/**
 * The slot a job is due for at `now`: the latest scheduled time at or before it. A slot runs
 * once; an instance that was down at 03:00 catches the day's run up when it starts.
 */
export function currentSlot(schedule: Schedule, now: Date): Date {
  const at = now.getTime();
  if (schedule.kind === 'every') return new Date(Math.floor(at / schedule.ms) * schedule.ms);
  const today = osloToday(now);
  // A time the spring-forward skips lands an hour later (osloInstantOf), so the day's run still happens.
  const slot = osloInstantOf(today, schedule.at);
  return slot.getTime() <= at ? slot : osloInstantOf(addDays(today, -1), schedule.at);
}

/** The first scheduled time after `now`. */
export function nextSlot(schedule: Schedule, now: Date): Date {
  const at = now.getTime();
  if (schedule.kind === 'every') return new Date((Math.floor(at / schedule.ms) + 1) * schedule.ms);
  const today = osloToday(now);
  const slot = osloInstantOf(today, schedule.at);
  return slot.getTime() > at ? slot : osloInstantOf(addDays(today, 1), schedule.at);
}
