import { mkdtempSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultCatalogue } from '@minside/titles';
import { contentDocumentSchema, type Title } from '@minside/domain';
import { parseMarkdown } from '../src/modules/content/markdown.ts';
import { createContentService } from '../src/modules/content/service.ts';

// Operators write the Markdown, but nothing they write may run in the browser: the parser
// turns HTML and unsafe links into text, and the result is a tree the web renders as React
// elements (no HTML string anywhere).

describe('parseMarkdown', () => {
  it('keeps headings, paragraphs, lists, emphasis and safe links', () => {
    const parsed = parseMarkdown('# Tittel\n\nHei **du** og *deg*: [vilkår](/vilkaar), [e-post](mailto:a@b.no) og `kode`.\n\n## Del én\n\n- en\n- [to](https://example.no)\n\n1. først\n\n> sitat\n');
    expect(parsed.title).toBe('Tittel');
    expect(parsed.blocks).toEqual([
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Hei ' },
          { type: 'strong', children: [{ type: 'text', text: 'du' }] },
          { type: 'text', text: ' og ' },
          { type: 'em', children: [{ type: 'text', text: 'deg' }] },
          { type: 'text', text: ': ' },
          { type: 'link', href: '/vilkaar', children: [{ type: 'text', text: 'vilkår' }] },
          { type: 'text', text: ', ' },
          { type: 'link', href: 'mailto:a@b.no', children: [{ type: 'text', text: 'e-post' }] },
          { type: 'text', text: ' og ' },
          { type: 'code', text: 'kode' },
          { type: 'text', text: '.' },
        ],
      },
      { type: 'heading', level: 2, id: 'del-en', children: [{ type: 'text', text: 'Del én' }] },
      { type: 'list', ordered: false, items: [[{ type: 'text', text: 'en' }], [{ type: 'link', href: 'https://example.no', children: [{ type: 'text', text: 'to' }] }]] },
      { type: 'list', ordered: true, items: [[{ type: 'text', text: 'først' }]] },
      { type: 'quote', children: [{ type: 'text', text: 'sitat' }] },
    ]);
  });

  it.each([['javascript:alert(1)'], ['JaVaScRiPt:alert(1)'], ['data:text/html,<script>alert(1)</script>'], ['//evil.example/x'], ['vbscript:msgbox']])(
    'drops the unsafe link %s to its text',
    (href) => {
      const parsed = parseMarkdown(`[klikk](${href})`);
      expect(JSON.stringify(parsed.blocks)).not.toContain('"type":"link"');
      expect(JSON.stringify(parsed.blocks)).toContain('klikk');
    },
  );

  it('turns raw HTML into plain text, inline and as a block', () => {
    const parsed = parseMarkdown('Hei <img src=x onerror=alert(1)> du\n\n<script>alert(1)</script>\n\n<a href="javascript:alert(1)">x</a>');
    const json = JSON.stringify(parsed.blocks);
    expect(json).not.toContain('"type":"link"');
    // The markup is there only as the text of text nodes: React escapes it when it renders.
    for (const block of parsed.blocks) {
      expect(block.type).toBe('paragraph');
      if (block.type === 'paragraph') for (const node of block.children) expect(node.type).toBe('text');
    }
    expect(json).toContain('<script>alert(1)</script>');
  });

  it('gives headings unique ids, never an h1 or deeper than h4 below the title', () => {
    const parsed = parseMarkdown('# A\n\n# B\n\n###### Dyp\n\n## Ærlig talt\n\n## Ærlig talt\n');
    expect(parsed.blocks.map((block) => (block.type === 'heading' ? [block.level, block.id] : null))).toEqual([
      [2, 'b'],
      [4, 'dyp'],
      [2, 'aerlig-talt'],
      [2, 'aerlig-talt-2'],
    ]);
  });
});

describe('content service', () => {
  const dir = mkdtempSync(join(tmpdir(), 'minside-content-'));
  mkdirSync(join(dir, 'legal', 'default'), { recursive: true });
  mkdirSync(join(dir, 'legal', 'aag'), { recursive: true });
  writeFileSync(
    join(dir, 'legal', 'default', 'vilkaar.md'),
    '# Standard\n\nFor {{titleName}} i {{groupName}}. Ring {{customerCenterPhone}}. [Data](/{{identityProvider}}TakeoutGateway) {{unknown}}\n',
  );
  const service = createContentService({ contentDir: dir, catalogue: defaultCatalogue, identityProviderName: 'spid' });
  const titleOf = (code: string): Title => {
    const entry = defaultCatalogue.byTitleCode(code);
    return { titleCode: code, name: entry.name, customerCenterEmail: 'kundeservice@example.no', customerCenterPhoneNumber: '+47 22 00 00 00', organizationNumber: '999999999' } as Title;
  };

  it('falls back to default, fills the placeholders, and leaves unknown ones as written', async () => {
    const document = contentDocumentSchema.parse(await service.document('legal', 'vilkaar', titleOf('ADR')));
    expect(document).toMatchObject({ title: 'Standard', group: 'default' });
    expect(JSON.stringify(document.blocks)).toContain('For Adresseavisen i Adresseavisen Gruppen. Ring +47 22 00 00 00.');
    expect(JSON.stringify(document.blocks)).toContain('"href":"/spidTakeoutGateway"');
    expect(JSON.stringify(document.blocks)).toContain('{{unknown}}');
  });

  it("prefers the group's own file, and shows an operator's edit without a restart", async () => {
    const path = join(dir, 'legal', 'aag', 'vilkaar.md');
    writeFileSync(path, '# Gruppens egne\n');
    utimesSync(path, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    expect((await service.document('legal', 'vilkaar', titleOf('ADR'))).title).toBe('Gruppens egne');
    writeFileSync(path, '# Endret av redaksjonen\n');
    utimesSync(path, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    expect((await service.document('legal', 'vilkaar', titleOf('ADR'))).title).toBe('Endret av redaksjonen');
  });

  it('answers 404 CONTENT_NOT_FOUND when neither the group nor default has the page', async () => {
    await expect(service.document('legal', 'personvern', titleOf('ADR'))).rejects.toMatchObject({ statusCode: 404, code: 'CONTENT_NOT_FOUND' });
  });
});
