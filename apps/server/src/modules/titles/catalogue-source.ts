import { readFileSync } from 'node:fs';
import { desc } from 'drizzle-orm';
import { createCatalogue, defaultCatalogue, defaultCatalogueDocument, type Catalogue } from '@minside/titles';
import { ConfigError } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { titleCatalogueVersion } from '../../db/schema.ts';

/** A catalogue with the document it was built from, so it can be exported and edited as written. */
export interface CatalogueSource {
  catalogue: Catalogue;
  document: Record<string, unknown>;
  /** The stored version it came from; null for TITLES_FILE or the built-in data. */
  version: number | null;
  /** Where it came from, for logs and operator output. */
  origin: string;
}

/** TITLES_FILE or the built-in data/titles.json. */
export function loadCatalogueFile(titlesFile: string | undefined): CatalogueSource {
  if (!titlesFile) return { catalogue: defaultCatalogue, document: structuredClone(defaultCatalogueDocument) as Record<string, unknown>, version: null, origin: 'built-in data/titles.json' };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(titlesFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(`TITLES_FILE: cannot read ${titlesFile} as JSON: ${(error as Error).message}`);
  }
  try {
    return { catalogue: createCatalogue(raw), document: raw as Record<string, unknown>, version: null, origin: `TITLES_FILE ${titlesFile}` };
  } catch (error) {
    throw new ConfigError(`TITLES_FILE: ${titlesFile} is not a valid title catalogue: ${(error as Error).message}`);
  }
}

/** The newest stored catalogue version, or undefined when none was ever stored. */
export async function latestCatalogueVersion(db: Pick<Db, 'select'>) {
  const [row] = await db.select().from(titleCatalogueVersion).orderBy(desc(titleCatalogueVersion.version)).limit(1);
  return row;
}

/**
 * The catalogue a server serves (ADR 019): the newest version in the database once an
 * operator has stored one, else TITLES_FILE, else the built-in data. Read once at start: a
 * new version reaches a running instance with its next (rolling) restart.
 */
export async function loadActiveCatalogue(db: Pick<Db, 'select'>, titlesFile: string | undefined): Promise<CatalogueSource> {
  const row = await latestCatalogueVersion(db);
  if (!row) return loadCatalogueFile(titlesFile);
  try {
    return { catalogue: createCatalogue(row.document), document: row.document, version: row.version, origin: `database version ${row.version}` };
  } catch (error) {
    // Only reachable when a release tightened the validation after the version was stored.
    throw new ConfigError(`Title catalogue version ${row.version} in the database is no longer valid: ${(error as Error).message}\nFix it with: npm run admin -- catalogue import <fixed file>`);
  }
}
