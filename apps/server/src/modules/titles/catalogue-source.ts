import { readFileSync } from 'node:fs';
import { createCatalogue, defaultCatalogue, type Catalogue } from '@minside/titles';
import { ConfigError } from '../../config.ts';

/** The built-in catalogue, or the operator's replacement from TITLES_FILE (validated whole). */
export function loadCatalogue(titlesFile: string | undefined): Catalogue {
  if (!titlesFile) return defaultCatalogue;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(titlesFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(`TITLES_FILE: cannot read ${titlesFile} as JSON: ${(error as Error).message}`);
  }
  try {
    return createCatalogue(raw);
  } catch (error) {
    throw new ConfigError(`TITLES_FILE: ${titlesFile} is not a valid title catalogue: ${(error as Error).message}`);
  }
}
