/**
 * A one-page invoice as a PDF 1.4 file, written by hand: the standard Helvetica fonts with
 * WinAnsiEncoding need no embedding, so a few objects and a cross-reference table make a
 * file every viewer opens, with no dependency for the job.
 */

export interface InvoicePdfInput {
  titleName: string;
  titleOrganizationNumber: string | null;
  customerName: string;
  ariaAccountNo: number;
  ariaInvoiceNo: number;
  issuedOn: string;
  dueOn: string;
  periodFrom: string;
  periodTo: string;
  description: string;
  amountOre: number;
  kid: string;
  bankAccountNumber: string;
  /** Null when unpaid. */
  paidOn: string | null;
}

/** 64900 → "kr 649,00" (nb-NO, plain spaces so the PDF's WinAnsi text shows it). */
// Made once: a claim file formats a million amounts, and a NumberFormat costs far more to make than to use.
const kronerForPdf = new Intl.NumberFormat('nb-NO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatKronerForPdf(ore: number): string {
  const value = kronerForPdf.format(ore / 100);
  return `kr ${value.replace(/[\u00a0\u202f]/g, ' ').replace('\u2212', '-')}`;
}

/** 2026-12-01 → 01.12.2026. */
export function formatNorwegianDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}.${month}.${year}`;
}

const winAnsiExtras: Record<string, number> = { '\u2013': 0x96, '\u2014': 0x97, '\u2022': 0x95, '\u20ac': 0x80, '\u2019': 0x92, '\u2026': 0x85 };

/** A PDF string literal in WinAnsi: ASCII as is, the rest as octal escapes. */
function pdfString(text: string): string {
  let out = '(';
  for (const char of text) {
    const code = winAnsiExtras[char] ?? char.codePointAt(0) ?? 63;
    const byte = code <= 0xff ? code : 63;
    if (char === '(' || char === ')' || char === '\\') out += `\\${char}`;
    else if (byte < 32 || byte > 126) out += `\\${byte.toString(8).padStart(3, '0')}`;
    else out += String.fromCharCode(byte);
  }
  return `${out})`;
}

interface TextLine {
  x: number;
  y: number;
  size: number;
  bold?: boolean;
  text: string;
}

export function renderInvoicePdf(input: InvoicePdfInput): Buffer {
  const amount = formatKronerForPdf(input.amountOre);
  const lines: TextLine[] = [
    { x: 56, y: 780, size: 22, bold: true, text: input.titleName },
    ...(input.titleOrganizationNumber ? [{ x: 56, y: 762, size: 9, text: `Org.nr. ${input.titleOrganizationNumber}` }] : []),
    { x: 400, y: 780, size: 20, bold: true, text: 'Faktura' },
    { x: 56, y: 712, size: 10, bold: true, text: 'Til' },
    { x: 56, y: 698, size: 11, text: input.customerName },
    { x: 56, y: 684, size: 10, text: `Kundenummer ${input.ariaAccountNo}` },
    { x: 340, y: 712, size: 10, text: `Fakturanummer: ${input.ariaInvoiceNo}` },
    { x: 340, y: 698, size: 10, text: `Fakturadato: ${formatNorwegianDate(input.issuedOn)}` },
    { x: 340, y: 684, size: 10, bold: true, text: `Forfallsdato: ${formatNorwegianDate(input.dueOn)}` },
    { x: 56, y: 630, size: 10, bold: true, text: 'Beskrivelse' },
    { x: 340, y: 630, size: 10, bold: true, text: 'Periode' },
    { x: 480, y: 630, size: 10, bold: true, text: 'Beløp' },
    { x: 56, y: 612, size: 10, text: input.description.length > 52 ? `${input.description.slice(0, 51)}…` : input.description },
    { x: 340, y: 612, size: 10, text: `${formatNorwegianDate(input.periodFrom)} – ${formatNorwegianDate(input.periodTo)}` },
    { x: 480, y: 612, size: 10, text: amount },
    { x: 340, y: 576, size: 12, bold: true, text: 'Å betale' },
    { x: 480, y: 576, size: 12, bold: true, text: amount },
    {
      x: 56,
      y: 540,
      size: 11,
      bold: input.paidOn !== null,
      text: input.paidOn ? `Betalt ${formatNorwegianDate(input.paidOn)}. Takk for betalingen!` : 'Ikke betalt. Husk å bruke KID når du betaler.',
    },
    { x: 56, y: 250, size: 12, bold: true, text: 'Betalingsinformasjon' },
    { x: 56, y: 226, size: 11, text: `KID: ${input.kid}` },
    { x: 56, y: 208, size: 11, text: `Kontonummer: ${input.bankAccountNumber}` },
    { x: 56, y: 190, size: 11, text: `Beløp: ${amount}` },
    { x: 56, y: 172, size: 11, text: `Forfallsdato: ${formatNorwegianDate(input.dueOn)}` },
    { x: 56, y: 154, size: 11, text: `Betalingsmottaker: ${input.titleName}` },
  ];
  const content = [
    // A rule under the header and a box around the payment details.
    '0.6 w 56 740 m 539 740 l S',
    '0.6 w 56 600 m 539 600 l S',
    '1 w 48 140 499 130 re S',
    ...lines.map((line) => `BT /${line.bold ? 'F2' : 'F1'} ${line.size} Tf ${line.x} ${line.y} Td ${pdfString(line.text)} Tj ET`),
  ].join('\n');

  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${pdfString(`Faktura ${input.ariaInvoiceNo} – ${input.titleName}`)} /Producer (Min Side) >>`,
  ];
  let pdf = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
