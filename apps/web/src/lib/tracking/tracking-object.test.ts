import { describe, expect, it } from 'vitest';
import { buildTrackingObject, utmOf } from './tracking-object.ts';

describe('SPEC §3 analytics tracking object', () => {
  it('takes every field of the tracking object from the query string', () => {
    const search = new URLSearchParams(
      'id=42&type=offer&contentId=c-1&aria_plan_id=ADR-DIGITAL-M&aria_schedule_id=s-9&campaignID=CAMP-2020-03-003&artRefId=a-7&position=top&source=front&payment_option=VIPPS&discount_id=d-3&other=ignored',
    );
    expect(buildTrackingObject({}, search).tracking).toEqual({
      id: '42',
      type: 'offer',
      contentId: 'c-1',
      aria_plan_id: 'ADR-DIGITAL-M',
      aria_schedule_id: 's-9',
      campaignID: 'CAMP-2020-03-003',
      artRefId: 'a-7',
      position: 'top',
      source: 'front',
      payment_option: 'VIPPS',
      discount_id: 'd-3',
    });
  });

  it('lets a route parameter win over the query parameter of the same name', () => {
    expect(buildTrackingObject({ id: 'from-route' }, new URLSearchParams('id=from-query')).tracking).toEqual({ id: 'from-route' });
  });

  it('leaves out empty values and cuts overlong ones', () => {
    const { tracking } = buildTrackingObject({ type: '  ' }, new URLSearchParams(`contentId=&position=${'x'.repeat(500)}`));
    expect(tracking).toEqual({ position: 'x'.repeat(200) });
  });
});

describe('SPEC §3 UTM parameters map to source, medium, campaign, terms and content', () => {
  it('maps each utm_ parameter to its field', () => {
    const search = new URLSearchParams('utm_source=adressa.no&utm_medium=email&utm_campaign=winback&utm_term=avis&utm_content=banner');
    expect(utmOf(search)).toEqual({ source: 'adressa.no', medium: 'email', campaign: 'winback', terms: 'avis', content: 'banner' });
  });

  it('has no fields without UTM parameters', () => {
    expect(utmOf(new URLSearchParams('source=x'))).toEqual({});
  });

  it('uses the UTM source as the source when the link names none of its own', () => {
    expect(buildTrackingObject({}, new URLSearchParams('utm_source=newsletter')).tracking.source).toBe('newsletter');
    expect(buildTrackingObject({}, new URLSearchParams('source=front&utm_source=newsletter')).tracking.source).toBe('front');
  });
});
