import { describe, expect, it } from 'vitest';
import { clearPaymentKeys, PAYMENT_KEYS_STORAGE_KEY, readPaymentKeys, savePaymentKeys, type KeyStorage } from './payment-keys.ts';

function memoryStorage(): KeyStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('temporary payment keys (SPEC §3)', () => {
  it('keeps the five keys for the flow and clears them at its end', () => {
    const storage = memoryStorage();
    const keys = { paymentMethodId: 'VIPPS', invoiceDueAmount: 64_900, invoiceNo: '80000001', agreementId: 'pay_123', source: 'payInvoice' } as const;
    savePaymentKeys(keys, storage);
    expect(readPaymentKeys(storage)).toEqual(keys);
    clearPaymentKeys(storage);
    expect(readPaymentKeys(storage)).toBeNull();
    expect(storage.items.size).toBe(0);
  });

  it('never stores anything but the five keys: card data is refused', () => {
    const storage = memoryStorage();
    const withCard = { paymentMethodId: 'SWEDBANK-PPG', source: 'addPaymentCard', cardNumber: '4925000000000004' };
    expect(() => savePaymentKeys(withCard as never, storage)).toThrow();
    expect(storage.items.size).toBe(0);
  });

  it('ignores what it did not write: garbage, another format, unknown sources', () => {
    const storage = memoryStorage();
    storage.setItem(PAYMENT_KEYS_STORAGE_KEY, '{not json');
    expect(readPaymentKeys(storage)).toBeNull();
    storage.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify({ paymentMethodId: 'VIPPS', source: 'elsewhere' }));
    expect(readPaymentKeys(storage)).toBeNull();
    storage.setItem(PAYMENT_KEYS_STORAGE_KEY, JSON.stringify({ paymentMethodId: 'VIPPS', source: 'payInvoice', invoiceNo: '12; drop' }));
    expect(readPaymentKeys(storage)).toBeNull();
  });

  it('works without storage (switched off): nothing kept, nothing thrown', () => {
    const broken: KeyStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => savePaymentKeys({ paymentMethodId: 'VIPPS', source: 'payInvoice' }, broken)).not.toThrow();
    expect(readPaymentKeys(broken)).toBeNull();
    expect(() => clearPaymentKeys(broken)).not.toThrow();
    expect(readPaymentKeys(null)).toBeNull();
  });
});
