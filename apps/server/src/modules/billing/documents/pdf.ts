import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { formatKroner, formatShortDate } from '@minside/domain';
import { amountDueOre, zeroRateReasons, type BillingDocumentContent } from './content.ts';

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

/** "962806112" → "962 806 112"; with MVA: "NO 962 806 112 MVA" (as the VAT register writes it). */
function formatOrganizationNumber(organizationNumber: string, vatRegistered: boolean): string {
  const grouped = organizationNumber.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
  return vatRegistered ? `NO ${grouped} MVA` : grouped;
}

/** "15031240007" → "1503.12.40007": how Norwegian account numbers are printed. */
function formatAccountNumber(digits: string): string {
  return digits.replace(/^(\d{4})(\d{2})(\d{5})$/, '$1.$2.$3');
}

/** Documents always show øre, so amounts line up in their columns. */
const documentAmount = (ore: number) => formatKroner(ore, { withOre: true });

const page = { width: 595.28, height: 841.89, margin: 56 };
const ink = '#1b1c1f';
const muted = '#4c5058';
const rule = '#c9c6bf';

type Doc = InstanceType<typeof PDFDocument>;
type StructParent = ReturnType<Doc['struct']>;

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
  const { seller, buyer } = content;
  const isInvoice = content.kind === 'INVOICE';
  const left = page.margin;
  const right = page.width - page.margin;
  const width = right - left;
  const root = doc.struct('Document');
  doc.addStructure(root);

  // Text in one tagged element: a heading, a paragraph, or a table cell.
  const text = (parent: StructParent, role: 'H1' | 'H2' | 'P', value: string, x: number, y: number, options: { font?: 'Regular' | 'Bold'; size?: number; color?: string; width?: number; align?: 'left' | 'right' } = {}) => {
    const element = doc.struct(role, {}, () => {
      doc
        .font(options.font ?? 'Regular')
        .fontSize(options.size ?? 10)
        .fillColor(options.color ?? ink)
        .text(value, x, y, { width: options.width ?? width, align: options.align ?? 'left', lineGap: 1.5 });
    });
    parent.add(element);
    return doc.y;
  };
  const artifact = (paint: () => void) => {
    doc.markContent('Artifact', { type: 'Layout' });
    paint();
    doc.endMarkedContent();
  };

  // Header: the title's wordmark (its name in its colour, as the portal's generated logo) and what the document is.
  text(root, 'P', seller.titleName, left, 48, { font: 'Bold', size: 24, color: /^#[0-9a-fA-F]{6}$/.test(seller.brandColor) ? seller.brandColor : ink, width: width * 0.62 });
  text(root, 'H1', isInvoice ? 'Faktura' : 'Kreditnota', left + width * 0.62, 50, { font: 'Bold', size: 22, width: width * 0.38, align: 'right' });

  // Seller.
  const sellerLines = [
    seller.legalName,
    ...(seller.street ? [seller.street, `${seller.postalCode} ${seller.town}`] : []),
    `Org.nr. ${formatOrganizationNumber(seller.organizationNumber, seller.vatRegistered)}`,
  ];
  text(root, 'P', sellerLines.join('\n'), left, 86, { size: 9, color: muted, width: width * 0.5 });
  text(root, 'P', [`Kundeservice: ${seller.customerCenterPhone}`, seller.customerCenterEmail, seller.pageUrl.replace(/^https?:\/\//, '')].join('\n'), left + width * 0.5, 86, {
    size: 9,
    color: muted,
    width: width * 0.5,
    align: 'right',
  });
  artifact(() => doc.moveTo(left, 140).lineTo(right, 140).lineWidth(0.6).strokeColor(rule).stroke());

  // Buyer, where a window envelope shows it, and the document's facts beside it.
  text(root, 'H2', 'Til', left, 158, { font: 'Bold', size: 9, color: muted, width: width * 0.5 });
  const buyerLines = [
    buyer.name,
    ...(buyer.postalAddress ? [...buyer.postalAddress.lines, `${buyer.postalAddress.postalCode} ${buyer.postalAddress.town}`] : [buyer.email]),
    ...(buyer.organizationNumber ? [`Org.nr. ${formatOrganizationNumber(buyer.organizationNumber, false)}`] : []),
  ];
  const buyerEnd = text(root, 'P', buyerLines.join('\n'), left, 172, { size: 11, width: width * 0.5 - 12 });

  const facts: [string, string][] = [
    [isInvoice ? 'Fakturanummer' : 'Kreditnotanummer', String(content.number)],
    [isInvoice ? 'Fakturadato' : 'Dato', formatShortDate(content.issuedOn)],
    ...(content.credits
      ? ([
          ['Gjelder faktura', String(content.credits.invoiceNumber)],
          ['Fakturaens dato', formatShortDate(content.credits.invoiceIssuedOn)],
        ] as [string, string][])
      : []),
    ['Kundenummer', String(buyer.customerNumber)],
    ...(buyer.reference ? ([['Deres referanse', buyer.reference]] as [string, string][]) : []),
    ...(content.dueOn ? ([['Forfallsdato', formatShortDate(content.dueOn)]] as [string, string][]) : []),
    ...(content.payment ? ([['KID', content.payment.kid]] as [string, string][]) : []),
  ];
  const factsTable = doc.struct('Table');
  root.add(factsTable);
  let factY = 158;
  for (const [label, value] of facts) {
    const row = doc.struct('TR');
    factsTable.add(row);
    row.add(doc.struct('TH', {}, () => doc.font('Regular').fontSize(9).fillColor(muted).text(label, left + width * 0.55, factY + 1, { width: width * 0.2 })));
    row.add(doc.struct('TD', {}, () => doc.font(label === 'Forfallsdato' ? 'Bold' : 'Regular').fontSize(10).fillColor(ink).text(value, left + width * 0.75, factY, { width: width * 0.25, align: 'right' })));
    // A long value (a reference) wraps: the next row starts under it.
    factY = Math.max(factY + 16, doc.y + 3);
  }
  factsTable.end();

  // The lines: what was delivered, for which period, the VAT rate and the amount.
  let y = Math.max(buyerEnd, factY) + 36;
  const columns = { description: left, period: left + width * 0.5, vat: left + width * 0.72, amount: left + width * 0.8 };
  const lineTable = doc.struct('Table');
  root.add(lineTable);
  const headRow = doc.struct('TR');
  lineTable.add(headRow);
  const head = (label: string, x: number, columnWidth: number, align: 'left' | 'right' = 'left') =>
    headRow.add(doc.struct('TH', {}, () => doc.font('Bold').fontSize(9).fillColor(ink).text(label, x, y, { width: columnWidth, align })));
  head('Beskrivelse', columns.description, width * 0.48);
  head('Periode', columns.period, width * 0.22);
  head('Mva', columns.vat, width * 0.08, 'right');
  head(isInvoice ? 'Beløp' : 'Kreditert', columns.amount, width * 0.2, 'right');
  y += 16;
  artifact(() => doc.moveTo(left, y - 3).lineTo(right, y - 3).lineWidth(0.6).strokeColor(rule).stroke());
  for (const line of content.lines) {
    const row = doc.struct('TR');
    lineTable.add(row);
    let rowEnd = y;
    row.add(
      doc.struct('TD', {}, () => {
        doc.font('Regular').fontSize(10).fillColor(ink).text(line.description, columns.description, y + 4, { width: width * 0.48, lineGap: 1.5 });
        rowEnd = Math.max(rowEnd, doc.y);
      }),
    );
    row.add(doc.struct('TD', {}, () => doc.font('Regular').fontSize(10).text(`${formatShortDate(line.periodFrom)}–\n${formatShortDate(line.periodTo)}`, columns.period, y + 4, { width: width * 0.22 })));
    rowEnd = Math.max(rowEnd, doc.y);
    row.add(doc.struct('TD', {}, () => doc.font('Regular').fontSize(10).text(`${line.vatRatePercent} %`, columns.vat, y + 4, { width: width * 0.08, align: 'right' })));
    row.add(doc.struct('TD', {}, () => doc.font('Regular').fontSize(10).text(documentAmount(line.amountOre), columns.amount, y + 4, { width: width * 0.2, align: 'right' })));
    y = rowEnd + 8;
    artifact(() => doc.moveTo(left, y).lineTo(right, y).lineWidth(0.4).strokeColor(rule).stroke());
  }
  lineTable.end();

  // Totals, VAT shown even at zero with the section of the law that makes it zero.
  y += 10;
  const setOffs = content.setOffs ?? [];
  const dueOre = amountDueOre(content);
  const totals: [string, string, boolean][] = [
    ['Sum eksklusive mva', documentAmount(content.totals.netOre), false],
    ['Mva 0 %', documentAmount(content.totals.vatOre), false],
    // A credit note set off against the invoice is not a line of the sale (the note reduced the sale
    // already): the total stands, and what is due is less by the note.
    ...(setOffs.length > 0
      ? [['Sum inkludert mva', documentAmount(content.totals.totalOre), false] as [string, string, boolean], ...setOffs.map((setOff): [string, string, boolean] => [`Fratrukket kreditnota ${setOff.creditNoteNumber}`, documentAmount(-setOff.amountOre), false])]
      : []),
    [isInvoice ? 'Å betale' : 'Kreditert beløp', documentAmount(isInvoice ? dueOre : content.totals.totalOre), true],
  ];
  // "Fratrukket kreditnota 90000123" needs more room than the other labels; documents without one keep the layout they were issued with.
  const labelX = setOffs.length > 0 ? left + width * 0.4 : columns.period;
  const totalsTable = doc.struct('Table');
  root.add(totalsTable);
  for (const [label, value, strong] of totals) {
    const row = doc.struct('TR');
    totalsTable.add(row);
    row.add(doc.struct('TH', {}, () => doc.font(strong ? 'Bold' : 'Regular').fontSize(strong ? 12 : 10).fillColor(ink).text(label, labelX, y, { width: columns.amount - labelX })));
    row.add(doc.struct('TD', {}, () => doc.font(strong ? 'Bold' : 'Regular').fontSize(strong ? 12 : 10).fillColor(ink).text(value, columns.amount - width * 0.05, y, { width: width * 0.25, align: 'right' })));
    y += strong ? 20 : 15;
  }
  totalsTable.end();
  const bases = [...new Set(content.lines.map((line) => line.zeroRateBasis))];
  // A seller outside the VAT register charges no VAT at all (the EHF document says category O); zero-rating is for the registered.
  const vatNote = seller.vatRegistered ? bases.map((basis) => `0 % mva: ${zeroRateReasons[basis]}.`).join('\n') : 'Selger er ikke registrert i Merverdiavgiftsregisteret. Det beregnes ikke merverdiavgift.';
  y = text(root, 'P', vatNote, left, y + 8, { size: 9, color: muted });

  if (content.credits) {
    y = text(root, 'P', `Årsak: ${content.credits.reason}`, left, y + 14, { size: 10 });
    y = text(root, 'P', content.credits.settlement, left, y + 4, { size: 10 });
  }

  // How to pay: the title's own account and the invoice's KID.
  if (isInvoice && setOffs.length > 0 && dueOre <= 0) {
    y = text(root, 'P', 'Fakturaen er betalt med kreditnota. Du skal ikke betale noe.', left, y + 14, { font: 'Bold', size: 11 });
  }

  if (content.payment && content.dueOn && (dueOre > 0 || setOffs.length === 0)) {
    const boxTop = Math.max(y + 28, 560);
    artifact(() => doc.roundedRect(left - 8, boxTop - 12, width + 16, 132, 4).lineWidth(1).strokeColor(ink).stroke());
    text(root, 'H2', 'Betalingsinformasjon', left, boxTop, { font: 'Bold', size: 12 });
    const payTable = doc.struct('Table');
    root.add(payTable);
    const payRows: [string, string][] = [
      ['Kontonummer', formatAccountNumber(content.payment.accountNumber)],
      ['KID', content.payment.kid],
      ['Beløp', documentAmount(dueOre)],
      ['Forfallsdato', formatShortDate(content.dueOn)],
      ['Betalingsmottaker', seller.legalName],
    ];
    let payY = boxTop + 22;
    for (const [label, value] of payRows) {
      const row = doc.struct('TR');
      payTable.add(row);
      row.add(doc.struct('TH', {}, () => doc.font('Regular').fontSize(10).fillColor(muted).text(label, left, payY, { width: 130 })));
      row.add(doc.struct('TD', {}, () => doc.font('Bold').fontSize(11).fillColor(ink).text(value, left + 130, payY - 1, { width: width - 130 })));
      payY += 18;
    }
    payTable.end();
  }

  // Footer: who the seller is, on every document.
  const footer = [seller.legalName, ...(seller.street ? [`${seller.street}, ${seller.postalCode} ${seller.town}`] : []), `Org.nr. ${formatOrganizationNumber(seller.organizationNumber, seller.vatRegistered)}`].join(' · ');
  // Below the bottom margin: without this pdfkit would start a second page for it.
  doc.page.margins.bottom = 0;
  text(root, 'P', footer, left, page.height - 40, { size: 8, color: muted, align: 'left' });
  root.end();
}
