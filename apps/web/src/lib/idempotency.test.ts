import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAttemptKeys, newIdempotencyKey } from './idempotency.ts';

describe('idempotency keys', () => {
  it('are v4 UUIDs the server accepts, with and without randomUUID', () => {
    const uuid = z.uuid();
    expect(uuid.safeParse(newIdempotencyKey()).success).toBe(true);
    const withoutRandomUuid: Pick<Crypto, 'getRandomValues'> = { getRandomValues: (array) => globalThis.crypto.getRandomValues(array) };
    const key = newIdempotencyKey(withoutRandomUuid);
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuid.safeParse(key).success).toBe(true);
  });

  it('stay the same for a repeated submit of one choice, differ per choice, and renew after reset', () => {
    let counter = 0;
    const keys = createAttemptKeys(() => `key-${++counter}`);
    expect(keys.keyFor('VIPPS')).toBe('key-1');
    expect(keys.keyFor('VIPPS')).toBe('key-1');
    expect(keys.keyFor('SWEDBANK-PPG')).toBe('key-2');
    keys.reset();
    expect(keys.keyFor('VIPPS')).toBe('key-3');
  });
});
