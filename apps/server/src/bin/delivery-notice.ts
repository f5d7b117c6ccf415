import { parseArgs } from 'node:util';
import pino from 'pino';
import { parsePostalCodeList, segmentMessageBodySchema, segmentParamsSchema, systemClock } from '@minside/domain';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase, databaseOptionsFrom } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { createMailer } from '../integrations/mail/index.ts';
import { mailUnsubscribeSecret } from '../integrations/mail/unsubscribe.ts';
import { AppError } from '../lib/app-error.ts';
import { portalOriginFor } from '../lib/portal-url.ts';
import { createCalendarCache, createDeliveryNotices } from '../modules/delivery/index.ts';
import { loadActiveCatalogue } from '../modules/titles/index.ts';

const usage =
  'Usage: npm run delivery:notice -- --segment storm-2026-11-21 --title ADR --date 2026-11-21 --postal-codes "7010,7011" --message "Avisen kommer senere enn vanlig i dag på grunn av uvær."';

/**
 * `npm run delivery:notice -- …`: the operator's command-line way to send a delivery notice to a
 * segment, the same as `POST /api/segment/{id}/message` (docs/delivery-feed.md). Runs against
 * whatever database the configuration names; e-mails go out through SMTP_URL or stay in the
 * outbox (/_dev/mail).
 */
async function sendNotice(): Promise<void> {
  const { values } = parseArgs({
    options: { segment: { type: 'string' }, title: { type: 'string' }, date: { type: 'string' }, 'postal-codes': { type: 'string' }, message: { type: 'string' } },
  });
  const segment = segmentParamsSchema.safeParse({ id: values.segment });
  const body = segmentMessageBodySchema.safeParse({
    titleCode: values.title,
    issueDate: values.date,
    postalCodes: parsePostalCodeList(values['postal-codes'] ?? ''),
    message: values.message,
  });
  if (!segment.success || !body.success) {
    const problems = [...(segment.error?.issues ?? []), ...(body.error?.issues ?? [])].map((issue) => `  ${issue.path.join('.') || 'segment'}: ${issue.message}`);
    throw new ConfigError([usage, ...problems].join('\n'));
  }
  const config = loadConfig();
  const database = await createDatabase(databaseOptionsFrom(config));
  try {
    await migrate(database);
    const { catalogue } = await loadActiveCatalogue(database.db, config.titlesFile);
    const portalOrigin = portalOriginFor(config, catalogue);
    const mailer = createMailer({
      db: database.db,
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      dkim: config.mailDkim,
      unsubscribe: { secret: await mailUnsubscribeSecret(database.db), origin: portalOrigin },
      log: pino({ level: 'warn' }),
    });
    const notices = createDeliveryNotices({ db: database.db, catalogue, mailer, now: systemClock, calendarOf: createCalendarCache(), portalOrigin });
    const result = await notices.sendToSegment(segment.data.id, body.data);
    console.warn(
      result.created
        ? `Segment ${result.segmentId}: ${result.recipients} paper subscribers in ${result.postalCodes.length} postal codes, ${result.notifiedNow} notified.`
        : `Segment ${result.segmentId} was sent before: ${result.notifiedNow} more notified (${result.recipients} in all).`,
    );
  } finally {
    await database.close();
  }
}

sendNotice().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else if (error instanceof AppError) console.error(`${error.code}: ${error.message}`);
  else console.error(`Sending failed: ${(error as Error)?.message ?? String(error)}`);
  process.exit(1);
});
