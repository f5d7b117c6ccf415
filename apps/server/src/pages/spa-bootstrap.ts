import type { FastifyRequest } from 'fastify';
import { BOOTSTRAP_ELEMENT_ID, BOOTSTRAP_VERSION, bootstrapDataSchema, FALLBACK_TITLE_CODE, type BootstrapData, type Title } from '@minside/domain';
import type { Catalogue } from '@minside/titles';
import type { AuthService } from '../modules/auth/index.ts';
import { clientConfigOf, type ClientSettings } from '../modules/consent/index.ts';
import type { TitleService } from '../modules/titles/index.ts';
import type { SessionStore } from '../plugins/session.ts';

/** What the server knows about a page load before the SPA asks (docs/decisions/022). */
export type PageBootstrap = (request: FastifyRequest) => Promise<BootstrapData>;

export interface PageBootstrapDeps {
  titles: TitleService;
  auth: Pick<AuthService, 'session'>;
  sessions: Pick<SessionStore, 'find'>;
  catalogue: Catalogue;
  settings: ClientSettings;
}

/**
 * The answers the SPA's first calls would get for this page load, from the same services the
 * endpoints call: retrieveTitleCode and title (SPEC §4, with the web's POL fallbacks),
 * maintenanceTitle, client-config and session. Parsed through the shared schema, so the block
 * carries no field the endpoints would not send.
 */
export function createPageBootstrap({ titles, auth, sessions, catalogue, settings }: PageBootstrapDeps): PageBootstrap {
  return async (request) => {
    // The address the browser is on, as it sends it to retrieveTitleCode (location.href): on a
    // development host the `?title=` override of the first load counts, exactly as there.
    const minsideUrl = `${request.protocol}://${request.host}${request.url}`;
    let titleCode: string;
    try {
      titleCode = titles.retrieveTitleCode(minsideUrl);
    } catch {
      titleCode = FALLBACK_TITLE_CODE;
    }
    let title: Title;
    try {
      title = titles.getTitle(titleCode);
    } catch {
      titleCode = FALLBACK_TITLE_CODE;
      title = titles.getTitle(FALLBACK_TITLE_CODE);
    }
    const [maintenance, session] = await Promise.all([titles.maintenanceTitle(minsideUrl), sessions.find(request).then(async (active) => (active ? auth.session(request, titleCode) : null))]);
    return bootstrapDataSchema.parse({
      version: BOOTSTRAP_VERSION,
      host: request.host,
      titleCode,
      title,
      maintenance,
      clientConfig: clientConfigOf(settings, catalogue.byTitleCode(title.titleCode)),
      session: session && { user: session.user, account: session.account, subscription: session.subscription },
    });
  };
}

/**
 * JSON for inside a `<script type="application/json">`: every `<`, `>` and `&` as a \u escape,
 * so no value (a title's or a user's name) can close the element or open a comment, and the
 * line separators JavaScript once refused as well. JSON.parse reads the escapes back unchanged.
 */
function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The data block put into index.html. Not executed (a data block), so the CSP without inline script holds. */
export function bootstrapElement(data: BootstrapData): string {
  return `<script type="application/json" id="${BOOTSTRAP_ELEMENT_ID}">${serializeForScript(data)}</script>`;
}
