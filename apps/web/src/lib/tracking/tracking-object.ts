/**
 * SPEC §3 Analytics tracking object. Its fields come from the route's parameters and the
 * query string (links from the titles' sites carry them); UTM parameters map to source,
 * medium, campaign, terms and content.
 */
export interface TrackingObject {
  id?: string;
  type?: string;
  contentId?: string;
  aria_plan_id?: string;
  aria_schedule_id?: string;
  campaignID?: string;
  artRefId?: string;
  position?: string;
  source?: string;
  payment_option?: string;
  discount_id?: string;
}

export interface Utm {
  source?: string;
  medium?: string;
  campaign?: string;
  terms?: string;
  content?: string;
}

export const trackingFields = [
  'id',
  'type',
  'contentId',
  'aria_plan_id',
  'aria_schedule_id',
  'campaignID',
  'artRefId',
  'position',
  'source',
  'payment_option',
  'discount_id',
] as const satisfies readonly (keyof TrackingObject)[];

/** Query parameter → UTM field. */
export const utmParameters = {
  utm_source: 'source',
  utm_medium: 'medium',
  utm_campaign: 'campaign',
  utm_term: 'terms',
  utm_content: 'content',
} as const satisfies Record<string, keyof Utm>;

const MAX_VALUE_LENGTH = 200;

/** Empty values count as absent; overlong ones are cut so a crafted link cannot bloat every event. */
function clean(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, MAX_VALUE_LENGTH) : undefined;
}

export function utmOf(search: URLSearchParams): Utm {
  const utm: Utm = {};
  for (const [parameter, field] of Object.entries(utmParameters)) {
    const value = clean(search.get(parameter));
    if (value !== undefined) utm[field] = value;
  }
  return utm;
}

/**
 * The tracking object of a location: a route parameter wins over a query parameter of the
 * same name; without an own `source`, the UTM source is the source.
 */
export function buildTrackingObject(routeParams: Readonly<Record<string, string | undefined>>, search: URLSearchParams): { tracking: TrackingObject; utm: Utm } {
  const tracking: TrackingObject = {};
  for (const field of trackingFields) {
    const value = clean(routeParams[field]) ?? clean(search.get(field));
    if (value !== undefined) tracking[field] = value;
  }
  const utm = utmOf(search);
  if (tracking.source === undefined && utm.source !== undefined) tracking.source = utm.source;
  return { tracking, utm };
}
