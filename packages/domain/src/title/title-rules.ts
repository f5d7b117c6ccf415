// Kept apart from title.ts's schemas so the web's start-up code takes no zod along for it.

/** The title code used when nothing else resolves (SPEC §4 login flow). */
export const FALLBACK_TITLE_CODE = 'POL';
