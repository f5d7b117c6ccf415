/** SPEC §9: the tab id lasts 30 days. */
export const TAB_ID_KEY = 'minside:tabId';
export const TAB_ID_TTL_MS = 30 * 24 * 60 * 60 * 1000;

interface StoredTabId {
  id: string;
  expiresAt: number;
}

function parse(raw: string | null): StoredTabId | null {
  try {
    const value: unknown = JSON.parse(raw ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { id, expiresAt } = value as Record<string, unknown>;
    return typeof id === 'string' && id !== '' && typeof expiresAt === 'number' ? { id, expiresAt } : null;
  } catch {
    return null;
  }
}

/** The kept tab id while it lasts; a new one, kept for 30 days, once it has run out (or never existed). */
export function tabIdOf(storage: Pick<Storage, 'getItem' | 'setItem'>, now: number, newId: () => string): string {
  const stored = parse(storage.getItem(TAB_ID_KEY));
  if (stored && stored.expiresAt > now) return stored.id;
  const fresh: StoredTabId = { id: newId(), expiresAt: now + TAB_ID_TTL_MS };
  storage.setItem(TAB_ID_KEY, JSON.stringify(fresh));
  return fresh.id;
}
