// Data rights' time limits, error codes and messages, and the content pages' names, node types
// and plain helpers: no zod, so pages that only show them (the customer-service FAQ) take no
// schemas along. privacy.ts re-exports them beside the contracts.

/** SPEC §9: a data download or a deletion takes up to 30 days; ours is immediate for normal accounts. */
export const DATA_REQUEST_MAX_DAYS = 30;
/** How long a finished export can be downloaded. */
export const EXPORT_RETENTION_DAYS = 7;
/**
 * Each export e-mails the user: at most this many per user and Oslo calendar day (issue 20),
 * and one pending at a time, so a loop can flood neither the inbox nor the mail queue.
 */
export const EXPORT_DAILY_LIMIT = 3;
/** SPEC §9: payment history cannot be deleted until 5 years have passed (bookkeeping). */
export const PAYMENT_HISTORY_RETENTION_YEARS = 5;

export const privacyErrorCodes = {
  confirmationRequired: 'CONFIRMATION_REQUIRED',
  deletionAlreadyRequested: 'DELETION_ALREADY_REQUESTED',
  exportExpired: 'EXPORT_EXPIRED',
  exportNotReady: 'EXPORT_NOT_READY',
  contentNotFound: 'CONTENT_NOT_FOUND',
  exportDailyLimit: 'EXPORT_DAILY_LIMIT',
} as const;

export const privacyMessages = {
  /** SPEC §5: deleting the account requires two ticked confirmations. */
  confirmationRequired: 'Du må krysse av for begge bekreftelsene for å slette kontoen.',
  deletionAlreadyRequested: 'Du har allerede bedt om å slette kontoen. Slettingen er planlagt.',
  exportExpired: 'Nedlastingen er ikke lenger tilgjengelig. Be om en ny kopi.',
  exportNotReady: 'Kopien er ikke klar ennå. Du får en e-post når den er klar.',
  exportDailyLimit: `Du kan be om en kopi av dataene dine høyst ${EXPORT_DAILY_LIMIT} ganger per dag. Prøv igjen i morgen, eller last ned en kopi du allerede har bestilt.`,
} as const;

export const legalPages = ['vilkaar', 'vilkaar-bedrift', 'vilkaar-mer', 'data', 'personvern', 'cookie-policy', 'personverndetaljer'] as const;
export type LegalPage = (typeof legalPages)[number];
export const supportPages = ['faq'] as const;
export type SupportPage = (typeof supportPages)[number];

export type InlineNode =
  | { type: 'text'; text: string }
  | { type: 'strong'; children: InlineNode[] }
  | { type: 'em'; children: InlineNode[] }
  | { type: 'code'; text: string }
  | { type: 'link'; href: string; children: InlineNode[] }
  | { type: 'break' };

export type ContentBlock =
  | { type: 'heading'; level: 2 | 3 | 4; id: string; children: InlineNode[] }
  | { type: 'paragraph'; children: InlineNode[] }
  | { type: 'list'; ordered: boolean; items: InlineNode[][] }
  | { type: 'quote'; children: InlineNode[] };

/** The text of inline nodes, for search and ids. */
export function inlineText(nodes: InlineNode[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
        case 'code':
          return node.text;
        case 'break':
          return ' ';
        default:
          return inlineText(node.children);
      }
    })
    .join('');
}

/**
 * The link targets a content page may use: portal paths, and http(s), mailto and tel. Anything
 * else (javascript:, data:, protocol-relative //host) is dropped to its text.
 */
export function isSafeContentHref(href: string): boolean {
  if (/^\/(?![/\\])/.test(href)) return true;
  return /^(https?:\/\/|mailto:|tel:)/i.test(href);
}
