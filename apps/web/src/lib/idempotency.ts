/**
 * A fresh idempotency key (a v4 UUID) for one user action: a charge, a change at the provider,
 * or any write the http client sends (its `Idempotency-Key` header). The same action sends the
 * same key however often it is submitted or retried, so the server acts at most once
 * (ADR 009 for payments, ADR 029 for every write).
 */
export function newIdempotencyKey(random: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = globalThis.crypto): string {
  if (typeof random.randomUUID === 'function') return random.randomUUID();
  // Outside a secure context randomUUID is missing; getRandomValues is always there.
  const bytes = random.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** One key per choice (e.g. per payment method): kept until `reset`, so a double submit reuses it. */
export function createAttemptKeys(make: () => string = newIdempotencyKey) {
  const keys = new Map<string, string>();
  return {
    keyFor(choice: string): string {
      let key = keys.get(choice);
      if (!key) {
        key = make();
        keys.set(choice, key);
      }
      return key;
    },
    /** After an attempt has ended at the provider (cancelled, failed): the next one is new. */
    reset(): void {
      keys.clear();
    },
  };
}

/**
 * The `Idempotency-Key` of each write the http client sends (ADR 029). One user action is one
 * request (method, path, body): its key is made when it is first sent and reused while the
 * action has no answer yet, so a second click while it runs, or "Prøv igjen" after the network
 * lost it, is the same action and the server runs it once. An answer (any HTTP status) ends the
 * action: the same request sent after that is a new one and gets a new key.
 */
export function createActionKeys(make: () => string = newIdempotencyKey, limit = 50) {
  const open = new Map<string, string>();
  return {
    /** The key of this request: the open action's, or a new one. */
    keyFor(request: string): string {
      let key = open.get(request);
      if (!key) {
        key = make();
        // A tab that keeps failing must not grow without end: the oldest unanswered action goes first.
        if (open.size >= limit) open.delete(open.keys().next().value ?? '');
        open.set(request, key);
      }
      return key;
    },
    /** The server answered this request: its action is over. */
    answered(request: string): void {
      open.delete(request);
    },
  };
}
