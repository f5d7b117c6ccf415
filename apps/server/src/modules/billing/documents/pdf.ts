import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { BillingDocumentContent } from './content.ts';
import { drawHeading } from './pdf-heading.ts';
import { drawFooter, drawLines, drawPayment, drawTotals } from './pdf-sections.ts';
import { page, sheetOf } from './pdf-sheet.ts';

/**
 * An invoice or credit note as a PDF (issue 23), drawn with pdfkit in DejaVu Sans — an open font
 * with every Latin letter Norwegian, Sámi and the rest of Europe write names in ("Áile Čuđe"),
 * embedded (subset) so every viewer and archive shows the same glyphs. The file is tagged
 * (headings, paragraphs, a table) for screen readers and declares PDF/A-2b, the archive format.
 *
 * The output depends only on `content`: the creation date is the issue date, so the file id
 * pdfkit derives from it is stable too, and the same content gives the same bytes.
 */

const require = createRequire(import.meta.url);
// Read once from the npm package: no download at run time, the same glyphs in every environment.
const fonts = {
  regular: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
  bold: readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
};

type Doc = InstanceType<typeof PDFDocument>;

function documentTitle(content: BillingDocumentContent): string {
  return `${content.kind === 'INVOICE' ? 'Faktura' : 'Kreditnota'} ${content.number} – ${content.seller.titleName}`;
}

export async function renderDocumentPdf(content: BillingDocumentContent): Promise<Buffer> {
  const issued = new Date(`${content.issuedOn}T12:00:00Z`);
  const doc = new PDFDocument({
    size: 'A4',
    margin: page.margin,
    pdfVersion: '1.7',
    subset: 'PDF/A-2b',
    tagged: true,
    lang: 'nb-NO',
    displayTitle: true,
    autoFirstPage: true,
    info: {
      Title: documentTitle(content),
      Author: content.seller.legalName,
      Subject: content.kind === 'INVOICE' ? 'Faktura' : 'Kreditnota',
      Producer: 'Min Side',
      Creator: 'Min Side',
      CreationDate: issued,
      ModDate: issued,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('Regular', fonts.regular);
  doc.registerFont('Bold', fonts.bold);
  draw(doc, content);
  doc.end();
  return finished;
}

function draw(doc: Doc, content: BillingDocumentContent): void {
  const sheet = sheetOf(doc);
  const lines = drawLines(sheet, content, drawHeading(sheet, content) + 36);
  drawPayment(sheet, content, drawTotals(sheet, content, lines.y, lines.columns));
  drawFooter(sheet, content);
  sheet.root.end();
}
