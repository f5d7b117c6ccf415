import { newIdempotencyKey } from '../../lib/idempotency.ts';

/**
 * The order being placed in this tab (SPEC §3 temporary keys): its idempotency key, and its id
 * once the server has it. A double click, a retry or a reload sends the same key, so the server
 * answers the same order; only a finished order makes room for a new key.
 */
export interface OrderDraft {
  titleCode: string;
  ariaPlanID: string;
  idempotencyKey: string;
  orderId: string | null;
}

const KEY = 'minside.order';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readDraft(): OrderDraft | null {
  const raw = storage()?.getItem(KEY);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<OrderDraft>;
    if (typeof parsed.titleCode !== 'string' || typeof parsed.ariaPlanID !== 'string' || typeof parsed.idempotencyKey !== 'string') return null;
    return { titleCode: parsed.titleCode, ariaPlanID: parsed.ariaPlanID, idempotencyKey: parsed.idempotencyKey, orderId: typeof parsed.orderId === 'string' ? parsed.orderId : null };
  } catch {
    return null;
  }
}

/** The draft for this choice: the kept one when it is for the same title and plan, else a new key. */
export function draftFor(titleCode: string, ariaPlanID: string): OrderDraft {
  const kept = readDraft();
  if (kept && kept.titleCode === titleCode && kept.ariaPlanID === ariaPlanID) return kept;
  const fresh = { titleCode, ariaPlanID, idempotencyKey: newIdempotencyKey(), orderId: null };
  storage()?.setItem(KEY, JSON.stringify(fresh));
  return fresh;
}

export function saveDraft(draft: OrderDraft): void {
  storage()?.setItem(KEY, JSON.stringify(draft));
}

export function clearDraft(): void {
  storage()?.removeItem(KEY);
}
