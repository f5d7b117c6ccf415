import { titleGroups } from './types.ts';
import type { Catalogue, PublicationConfig } from './types.ts';

/** The fields SPEC §1 calls the customer centre's contact details; `contacts set` changes only these. */
export const contactFields = ['customerCenterPhoneNumber', 'customerCenterEmail', 'contactIsPlaceholder'] as const;
export type ContactField = (typeof contactFields)[number];

export interface CatalogueDiff {
  added: PublicationConfig[];
  removed: PublicationConfig[];
  /** One entry per changed field of a title in both; contact details are flagged. */
  changed: { titleCode: string; field: keyof PublicationConfig; from: unknown; to: unknown; contact: boolean }[];
  /** Group names that changed (the footer copyright line of every title in the group). */
  groups: { code: string; from: string; to: string }[];
}

const show = (value: unknown) => JSON.stringify(value);

/**
 * What replacing `before` with `after` changes, comparing entries with their defaults applied,
 * so a raw edit that leaves the served value alone (writing out a default) is no change.
 */
export function diffCatalogues(before: Catalogue, after: Catalogue): CatalogueDiff {
  const diff: CatalogueDiff = { added: [], removed: [], changed: [], groups: [] };
  for (const entry of after.all()) {
    const old = before.findByTitleCode(entry.titleCode);
    if (!old) {
      diff.added.push(entry);
      continue;
    }
    for (const field of Object.keys(entry) as (keyof PublicationConfig)[]) {
      if (show(old[field]) !== show(entry[field])) {
        diff.changed.push({ titleCode: entry.titleCode, field, from: old[field], to: entry[field], contact: (contactFields as readonly string[]).includes(field) });
      }
    }
  }
  for (const entry of before.all()) {
    if (!after.findByTitleCode(entry.titleCode)) diff.removed.push(entry);
  }
  for (const code of titleGroups) {
    const from = before.group(code).name;
    const to = after.group(code).name;
    if (from !== to) diff.groups.push({ code, from, to });
  }
  return diff;
}

export function isEmptyDiff(diff: CatalogueDiff): boolean {
  return diff.added.length + diff.removed.length + diff.changed.length + diff.groups.length === 0;
}

/** The diff as lines an operator reads before saying yes: added, removed, then changes per title. */
export function diffLines(diff: CatalogueDiff): string[] {
  const contactChanges = diff.changed.filter((change) => change.contact).length;
  return [
    ...diff.added.map((entry) => `+ ${entry.titleCode} ${entry.name} (added${entry.excluded ? ', excluded' : ''})`),
    ...diff.removed.map((entry) => `- ${entry.titleCode} ${entry.name} (removed)`),
    ...diff.changed.map((change) => `~ ${change.titleCode} ${change.field}: ${show(change.from)} -> ${show(change.to)}${change.contact ? ' (contact details)' : ''}`),
    ...diff.groups.map((change) => `~ group ${change.code} name: ${show(change.from)} -> ${show(change.to)}`),
    `${diff.added.length} added, ${diff.removed.length} removed, ${new Set(diff.changed.map((change) => change.titleCode)).size} changed (${contactChanges} contact detail${contactChanges === 1 ? '' : 's'}), ${diff.groups.length} group name${diff.groups.length === 1 ? '' : 's'} changed.`,
  ];
}
