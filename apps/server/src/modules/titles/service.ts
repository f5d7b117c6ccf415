import { eq } from 'drizzle-orm';
import { isDevelopmentHost, type MaintenanceTitle, type Title } from '@minside/domain';
import { logoPathOf, resolveTitleCode, titleDomainOf, type Catalogue, type PublicationConfig } from '@minside/titles';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { titleMaintenance } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';

const UNKNOWN_TITLE = 'UNKNOWN_TITLE';
const defaultMaintenanceMessage = 'Vi oppgraderer Min Side og er straks tilbake. Prøv igjen om litt.';

export interface TitleService {
  /** By titleCode (any case), publication or newsroom (SPEC §1 lookups); 404 when none. */
  getTitle(id: string): Title;
  /** The title a my-page URL belongs to; 404 when none (the web then falls back to POL). */
  retrieveTitleCode(minsideUrl: string): string;
  maintenanceTitle(minsideUrl: string): Promise<MaintenanceTitle>;
  findByTitleDomain(titleDomain: string): PublicationConfig | undefined;
  /**
   * The title a signed-in call is about: the code the browser resolved when it names an
   * offered title, else the title of the my-page URL, else the fallback (POL).
   */
  titleFor(titleCode: string | undefined, minsideUrl: string): Title;
}

export function createTitleService(deps: { catalogue: Catalogue; config: Config; db: Db }): TitleService {
  const { catalogue, config, db } = deps;
  const offeredCodes = new Set(catalogue.offered().map((entry) => entry.titleCode));
  const byDomain = new Map(catalogue.offered().map((entry) => [titleDomainOf(entry), entry]));

  function findOffered(id: string): PublicationConfig | undefined {
    const entry = catalogue.findByTitleCode(id) ?? catalogue.byPublication(id) ?? catalogue.byNewsroom(id);
    return entry && offeredCodes.has(entry.titleCode) ? entry : undefined;
  }

  function toTitle(entry: PublicationConfig): Title {
    return {
      titleCode: entry.titleCode,
      titleDomain: titleDomainOf(entry),
      pageUrl: entry.pageUrl,
      name: entry.name,
      customerCenterPhoneNumber: entry.customerCenterPhoneNumber,
      customerCenterEmail: entry.customerCenterEmail,
      organizationNumber: entry.organizationNumber,
      spidCredential: { clientId: config.oidcClientId },
      minsideUrl: entry.minsideUrl,
      brandColor: entry.brandColor,
      groupName: catalogue.group(entry.group).name,
      language: entry.language,
      logoPath: logoPathOf(entry),
      contactIsPlaceholder: entry.contactIsPlaceholder,
      identityProviderName: config.identityProviderName,
      playBaseUrl: entry.playBaseUrl,
    };
  }

  function resolve(minsideUrl: string): string | undefined {
    let hostname: string;
    try {
      hostname = new URL(minsideUrl).hostname;
    } catch {
      return undefined;
    }
    return resolveTitleCode(catalogue, minsideUrl, { allowQueryOverride: isDevelopmentHost(hostname) });
  }

  return {
    getTitle(id) {
      const entry = findOffered(id);
      if (!entry) {
        throw new AppError(404, UNKNOWN_TITLE, `Fant ingen avis med koden ${id}.`, `No publication config found for titleCode ${id}`);
      }
      return toTitle(entry);
    },

    retrieveTitleCode(minsideUrl) {
      const titleCode = resolve(minsideUrl);
      if (!titleCode) throw new AppError(404, UNKNOWN_TITLE, 'Fant ingen avis for denne adressen.');
      return titleCode;
    },

    async maintenanceTitle(minsideUrl) {
      const code = resolve(minsideUrl);
      const entry = code ? catalogue.byTitleCode(code) : catalogue.fallback();
      const [row] = await db.select().from(titleMaintenance).where(eq(titleMaintenance.titleCode, entry.titleCode));
      const maintenance = config.maintenance || Boolean(row?.enabled);
      return {
        titleCode: entry.titleCode,
        name: entry.name,
        maintenance,
        message: row?.message ?? defaultMaintenanceMessage,
      };
    },

    findByTitleDomain: (titleDomain) => byDomain.get(titleDomain),

    titleFor(titleCode, minsideUrl) {
      const fromCode = titleCode ? findOffered(titleCode) : undefined;
      if (fromCode) return toTitle(fromCode);
      const resolved = resolve(minsideUrl);
      return toTitle(resolved ? catalogue.byTitleCode(resolved) : catalogue.fallback());
    },
  };
}
