import { z } from 'zod';
import { BOOTSTRAP_VERSION } from './bootstrap-rules.ts';
import { clientConfigSchema } from '../consent/consent.ts';
import { sessionResponseSchema } from '../identity/identity.ts';
import { maintenanceTitleResponseSchema, titleSchema } from '../title/title.ts';

/**
 * What the server already knows when it serves index.html, put into the page as a JSON data
 * block (`<script type="application/json" id="minside-bootstrap">`) so the SPA starts without
 * the serial title → config → session round trips (docs/decisions/022). Each part is exactly
 * what its endpoint answers for this page load; the endpoints stay and are used whenever the
 * block is absent or does not fit. The server parses the block through this schema; the web
 * uses only its type and the constants (bootstrap-rules.ts, free of zod).
 */
export const bootstrapDataSchema = z.object({
  version: z.literal(BOOTSTRAP_VERSION),
  /** The Host the page was served for: the block is about this site only. */
  host: z.string(),
  /** What POST /api/retrieveTitleCode answers for the page URL, or POL when it finds none (SPEC §4). */
  titleCode: z.string(),
  /** GET /api/title/{titleCode}; the POL title when that one cannot be loaded (SPEC §8). */
  title: titleSchema,
  /** POST /api/maintenanceTitle for the page URL. */
  maintenance: maintenanceTitleResponseSchema,
  /** GET /api/client-config?titleCode={titleCode}. */
  clientConfig: clientConfigSchema,
  /** GET /api/session?titleCode={titleCode} without its title, or null when nobody is signed in. */
  session: sessionResponseSchema.omit({ title: true }).nullable(),
});
export type BootstrapData = z.infer<typeof bootstrapDataSchema>;

export * from './bootstrap-rules.ts';
