/**
 * A fresh idempotency key (a v4 UUID) for one attempt at a charge or a change at the provider.
 * The same attempt sends the same key however often it is submitted or retried, so the
 * server charges at most once (ARCHITECTURE "Idempotency").
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
