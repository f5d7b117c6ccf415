import type { Title } from '@minside/domain';

/** What a mail needs to know about the title it is sent for: its code, name, colour and customer centre (also its sender, `OutgoingMail.title`). */
export type MailTitle = Pick<Title, 'titleCode' | 'name' | 'brandColor' | 'pageUrl' | 'customerCenterEmail' | 'customerCenterPhoneNumber'>;

export interface MailContent {
  /** The heading inside the mail; also the subject unless `subject` is given. */
  heading: string;
  subject?: string;
  /** Plain sentences; they are escaped for the HTML part. */
  paragraphs: string[];
  /** The one thing to do: a button in HTML, the bare URL on its own line in text. */
  action?: { label: string; url: string };
  /** Closing lines under the action (e.g. how long a link works). */
  footnotes?: string[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

const hexColour = /^#[0-9a-fA-F]{6}$/;

/** Black or white text, whichever reads better on the brand colour (WCAG relative luminance). */
function textOn(background: string): string {
  const channel = (offset: number) => {
    const value = Number.parseInt(background.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#1b1c1f' : '#ffffff';
}

/**
 * Every e-mail the portal sends: Norwegian, in the title's name and colour, as text and as
 * HTML (ARCHITECTURE "e-mail"). Mail clients ignore style sheets, so the HTML is a small
 * table with inline styles; every value that comes from data is escaped.
 */
export function titleMail(title: MailTitle, content: MailContent): RenderedMail {
  const brand = hexColour.test(title.brandColor) ? title.brandColor : '#1b1c1f';
  const onBrand = textOn(brand);
  const contact = `Kundeservice: ${title.customerCenterEmail}, telefon ${title.customerCenterPhoneNumber}.`;
  const subject = content.subject ?? content.heading;

  const text = [
    title.name,
    '',
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.action ? [`${content.action.label}:`, content.action.url, ''] : []),
    ...(content.footnotes ?? []).flatMap((line) => [line, '']),
    '--',
    `Min Side – ${title.name}`,
    contact,
  ].join('\n');

  const paragraph = (line: string, muted = false) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;color:${muted ? '#4c5058' : '#1b1c1f'}">${escapeHtml(line)}</p>`;
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${brand};color:${onBrand};font-weight:600;text-decoration:none">${escapeHtml(content.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:#4c5058">Virker ikke knappen? Kopier denne adressen inn i nettleseren:<br><a href="${escapeHtml(content.action.url)}" style="color:#1b1c1f;word-break:break-all">${escapeHtml(content.action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="nb"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:#f4f2ee;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f2ee"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;overflow:hidden">
<tr><td style="background:${brand};color:${onBrand};padding:16px 24px;font-size:20px;font-weight:700">${escapeHtml(title.name)}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:#1b1c1f">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map((line) => paragraph(line)).join('\n')}
${action}
${(content.footnotes ?? []).map((line) => paragraph(line, true)).join('\n')}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e6e3dc;font-size:13px;line-height:1.5;color:#4c5058">Min Side – <a href="${escapeHtml(title.pageUrl)}" style="color:#4c5058">${escapeHtml(title.name)}</a><br>${escapeHtml(contact)}</td></tr>
</table>
</td></tr></table>
</body></html>`;

  return { subject, text, html };
}

/** Whom a subscriber's mail is addressed to: the proven address and the name to greet. */
export interface MailRecipient {
  email: string;
  givenName: string;
}

/**
 * The one shape of a mail to a subscriber about their own subscription, delivery or money
 * (confirmations of changes, receipts): the subject says the title first ("Adresseavisen:
 * oppsigelsen er registrert"), the text greets them by name, and the rest is `titleMail`.
 * Gives what `Mailer.enqueue` takes besides the kind and the idempotency key.
 */
export function subscriberMail(title: MailTitle, recipient: MailRecipient, content: MailContent & { subject: string }): RenderedMail & { to: string; title: MailTitle } {
  const greeting = recipient.givenName.trim() ? `Hei ${recipient.givenName.trim()}!` : 'Hei!';
  return {
    to: recipient.email,
    title,
    ...titleMail(title, { ...content, subject: `${title.name}: ${content.subject}`, paragraphs: [greeting, ...content.paragraphs] }),
  };
}
