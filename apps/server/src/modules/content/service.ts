import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { titleGroups, type Catalogue } from '@minside/titles';
import { privacyErrorCodes, type ContentDocument, type LegalPage, type SupportPage, type Title } from '@minside/domain';
import { AppError } from '../../lib/app-error.ts';
import { parseMarkdown, type ParsedMarkdown } from './markdown.ts';

export type ContentKind = 'legal' | 'support';
const DEFAULT_GROUP = 'default';

export interface ContentDeps {
  /** The folder holding `{kind}/{group}/{page}.md` (CONTENT_DIR, default ./content). */
  contentDir: string;
  catalogue: Catalogue;
  identityProviderName: string;
}

/**
 * Terms, policies and the customer-service FAQ are Markdown files an operator edits, one set
 * per title group with `default` for groups without their own file. Files are read when they
 * change (mtime), so an edit shows without a restart; the parse is cached per file version.
 */
export function createContentService({ contentDir, catalogue, identityProviderName }: ContentDeps) {
  const cache = new Map<string, { mtimeMs: number; parsed: ParsedMarkdown; updatedAt: Date }>();

  async function load(path: string): Promise<{ parsed: ParsedMarkdown; updatedAt: Date } | null> {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) return null;
    const cached = cache.get(path);
    if (cached && cached.mtimeMs === info.mtimeMs) return cached;
    const entry = { mtimeMs: info.mtimeMs, parsed: parseMarkdown(await readFile(path, 'utf8')), updatedAt: info.mtime };
    cache.set(path, entry);
    return entry;
  }

  /** Placeholders an operator may write, filled from the catalogue, so one default file fits every title. */
  function fill(parsed: ParsedMarkdown, title: Title, groupName: string): ParsedMarkdown {
    const values: Record<string, string> = {
      titleName: title.name,
      groupName,
      customerCenterEmail: title.customerCenterEmail,
      customerCenterPhone: title.customerCenterPhoneNumber,
      organizationNumber: title.organizationNumber,
      identityProvider: identityProviderName,
    };
    const replace = (text: string) => text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
    // Walk the tree rather than the Markdown, so a catalogue value can never add markup.
    const json = JSON.stringify(parsed, (_key, value: unknown) => (typeof value === 'string' ? replace(value) : value));
    return JSON.parse(json) as ParsedMarkdown;
  }

  return {
    async document(kind: ContentKind, page: LegalPage | SupportPage, title: Title): Promise<ContentDocument> {
      const entry = catalogue.byTitleCode(title.titleCode);
      const group = (titleGroups as readonly string[]).includes(entry.group) ? entry.group : DEFAULT_GROUP;
      const groupName = catalogue.group(entry.group).name;
      for (const folder of group === DEFAULT_GROUP ? [DEFAULT_GROUP] : [group, DEFAULT_GROUP]) {
        const found = await load(join(contentDir, kind, folder, `${page}.md`));
        if (found) {
          const { title: heading, blocks } = fill(found.parsed, title, groupName);
          return { title: heading, group: folder, blocks, updatedAt: found.updatedAt.toISOString() };
        }
      }
      throw new AppError(404, privacyErrorCodes.contentNotFound, 'Denne siden finnes ikke ennå.');
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
