import { describe, expect, it } from 'vitest';
import { deliveryPostalCodeOn, parsePostalCodeList, segmentMessageBodySchema, segmentParamsSchema, type DeliveryPointChange } from './delivery-notice.ts';

describe('deliveryPostalCodeOn', () => {
  const stop: DeliveryPointChange = { type: 'STOP', fromDate: '2026-12-01', toDate: '2026-12-05', postalCode: null };
  const redirect: DeliveryPointChange = { type: 'TRANSFER', fromDate: '2026-12-10', toDate: null, postalCode: '5003' };
  const move: DeliveryPointChange = { type: 'PERMANENT', fromDate: '2026-12-08', toDate: null, postalCode: '0150' };

  it('is the home address without changes', () => {
    expect(deliveryPostalCodeOn('2026-12-01', '7010', [])).toBe('7010');
    expect(deliveryPostalCodeOn('2026-12-01', null, [])).toBeNull();
  });

  it('is null on every day of a stop, and the home address on either side of it', () => {
    expect(deliveryPostalCodeOn('2026-11-30', '7010', [stop])).toBe('7010');
    expect(deliveryPostalCodeOn('2026-12-01', '7010', [stop])).toBeNull();
    expect(deliveryPostalCodeOn('2026-12-05', '7010', [stop])).toBeNull();
    expect(deliveryPostalCodeOn('2026-12-06', '7010', [stop])).toBe('7010');
  });

  it('follows a move from its first day, and a redirect (open-ended too) over the move', () => {
    expect(deliveryPostalCodeOn('2026-12-07', '7010', [move])).toBe('7010');
    expect(deliveryPostalCodeOn('2026-12-08', '7010', [move])).toBe('0150');
    expect(deliveryPostalCodeOn('2026-12-09', '7010', [move, redirect])).toBe('0150');
    expect(deliveryPostalCodeOn('2027-06-01', '7010', [move, redirect])).toBe('5003');
  });

  it('takes the newest move that has begun, whatever order the moves were placed in', () => {
    const later: DeliveryPointChange = { type: 'PERMANENT', fromDate: '2026-12-20', toDate: null, postalCode: '9008' };
    expect(deliveryPostalCodeOn('2026-12-21', '7010', [later, move])).toBe('9008');
    expect(deliveryPostalCodeOn('2026-12-10', '7010', [later, move])).toBe('0150');
  });
});

describe('segment message contract', () => {
  it('parses postal codes the way operators write them, without duplicates', () => {
    expect(parsePostalCodeList('7010, 7011 7012;7013\n7010')).toEqual(['7010', '7011', '7012', '7013']);
    expect(parsePostalCodeList('  ')).toEqual([]);
  });

  it('refuses malformed segment ids, postal codes, empty messages and missing codes', () => {
    expect(segmentParamsSchema.safeParse({ id: 'storm-2026-11-21.ADR' }).success).toBe(true);
    expect(segmentParamsSchema.safeParse({ id: '../etc' }).success).toBe(false);
    expect(segmentParamsSchema.safeParse({ id: 'x'.repeat(65) }).success).toBe(false);
    const body = { titleCode: 'ADR', issueDate: '2026-11-21', postalCodes: ['7010'], message: 'Sen levering' };
    expect(segmentMessageBodySchema.safeParse(body).success).toBe(true);
    expect(segmentMessageBodySchema.safeParse({ ...body, postalCodes: ['701'] }).success).toBe(false);
    expect(segmentMessageBodySchema.safeParse({ ...body, postalCodes: [] }).success).toBe(false);
    expect(segmentMessageBodySchema.safeParse({ ...body, message: '   ' }).success).toBe(false);
    expect(segmentMessageBodySchema.safeParse({ ...body, issueDate: '2026-02-30' }).success).toBe(false);
  });
});
