import { z } from 'zod';

/**
 * One-click unsubscribe from an optional kind of e-mail (RFC 8058; ADR 010 "Sender, kinds and
 * unsubscribing"): `POST /e-post/avmelding?token=…` from the mail client or the confirmation
 * page, `GET` the page itself. The signed token is the only credential: no login.
 */
export const unsubscribeQuerySchema = z.object({ token: z.string().min(1).max(2000) });

export const unsubscribeResponseSchema = z.object({
  result: z.literal('unsubscribed'),
  titleCode: z.string(),
  kind: z.string(),
  message: z.string(),
});
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;

export const unsubscribeErrorCodes = {
  /** Not a token we signed (forged, cut off, or for something else): nothing changes. */
  linkInvalid: 'UNSUBSCRIBE_LINK_INVALID',
} as const;

export const unsubscribeMessages = {
  linkInvalid: 'Lenken for å melde deg av er ikke gyldig. Bruk lenken i den siste e-posten du fikk, eller kontakt kundeservice.',
} as const;
