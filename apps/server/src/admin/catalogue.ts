import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { count, desc, eq } from 'drizzle-orm';
import { createCatalogue, diffCatalogues, diffLines, isEmptyDiff, type Catalogue } from '@minside/titles';
import { ConfigError } from '../config.ts';
import { account, plan, subscription, titleCatalogueVersion } from '../db/schema.ts';
import { latestCatalogueVersion, loadActiveCatalogue, loadCatalogueFile, type CatalogueSource } from '../modules/titles/index.ts';
import { AdminInputError, parse, type AdminContext } from './args.ts';

export const catalogueUsage = 'catalogue import <file.json> [--dry-run] | export [file.json] [--version N] | versions';
export const contactsUsage = 'contacts set <TITLE> [--phone "72 50 00 00"] [--email kundesenter@adressa.no] [--placeholder] [--dry-run]';

/** The command that makes a stored version reach every instance (docs/operations.md). */
const ROLLOUT_COMMAND = 'kubectl -n minside rollout restart deployment/minside';

/** What the instances serve, as the next start would load it: the newest stored version, else the file. */
async function activeSource(context: AdminContext): Promise<CatalogueSource> {
  try {
    return await loadActiveCatalogue(context.db, context.config.titlesFile);
  } catch (error) {
    // A stored version that a newer release no longer accepts: diff against the file, so a fixed version can still be imported.
    if (error instanceof ConfigError) return { ...loadCatalogueFile(context.config.titlesFile), version: (await latestCatalogueVersion(context.db))?.version ?? null };
    throw error;
  }
}

/**
 * Titles the new catalogue leaves out while stored rows still name them. A missing title
 * would make every lookup of those rows fail, so the import is refused; `"excluded": true`
 * keeps such a title known but no longer offered.
 */
async function removedButUsed(context: AdminContext, before: Catalogue, after: Catalogue): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of before.all()) {
    if (after.findByTitleCode(entry.titleCode)) continue;
    const code = entry.titleCode;
    const [subscriptions] = await context.db.select({ n: count() }).from(subscription).where(eq(subscription.titleCode, code));
    const [accounts] = await context.db.select({ n: count() }).from(account).where(eq(account.firstTitleCode, code));
    const [plans] = await context.db.select({ n: count() }).from(plan).where(eq(plan.titleCode, code));
    const uses = [
      [subscriptions?.n ?? 0, 'subscription'],
      [accounts?.n ?? 0, 'account'],
      [plans?.n ?? 0, 'plan'],
    ] as const;
    const named = uses.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
    if (named.length) problems.push(`${code} (${entry.name}) is removed, but ${named.join(', ')} still use it: keep it in the file with "excluded": true instead.`);
  }
  return problems;
}

/**
 * Validates `document` as start-up does, prints the difference to the active catalogue and,
 * unless dry-run, stores it as the next version. Refusals store nothing.
 */
async function storeVersion(context: AdminContext, document: unknown, source: string, dryRun: boolean): Promise<void> {
  let next: Catalogue;
  try {
    next = createCatalogue(document);
  } catch (error) {
    throw new AdminInputError(`${(error as Error).message}\nNothing was stored.`);
  }
  const active = await activeSource(context);
  const refusals = await removedButUsed(context, active.catalogue, next);
  if (refusals.length) throw new AdminInputError(`${refusals.join('\n')}\nNothing was stored.`);

  const diff = diffCatalogues(active.catalogue, next);
  context.print(`Compared with the active catalogue (${active.origin}):`);
  if (isEmptyDiff(diff)) {
    context.print(`No changes. Nothing was stored.`);
    return;
  }
  const lines = diffLines(diff);
  for (const line of lines) context.print(line);
  if (dryRun) {
    context.print('Dry run: nothing was stored.');
    return;
  }
  // Based on the newest row, not on what this process loaded: the primary key makes a concurrent store lose cleanly.
  const latest = await latestCatalogueVersion(context.db);
  if ((latest?.version ?? null) !== active.version) {
    throw new AdminInputError(`Catalogue version ${latest?.version} was stored while this command ran. Nothing was stored; run the command again.`);
  }
  const version = (latest?.version ?? 0) + 1;
  const [stored] = await context.db
    .insert(titleCatalogueVersion)
    .values({ version, document: document as Record<string, unknown>, source, changes: lines, createdAt: context.now() })
    .onConflictDoNothing()
    .returning({ version: titleCatalogueVersion.version });
  if (!stored) throw new AdminInputError(`Another catalogue version ${version} was stored at the same moment. Nothing was stored; run the command again.`);
  context.print(`Stored as catalogue version ${version}. Each instance serves it from its next start; to roll it out now: ${ROLLOUT_COMMAND}`);
}

async function importCatalogue(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { 'dry-run': { type: 'boolean' } }, catalogueUsage);
  const [file, ...rest] = positionals;
  if (!file || rest.length > 0) throw new AdminInputError(`Give one catalogue file.\nUsage: npm run admin -- ${catalogueUsage}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AdminInputError(`Cannot read ${file} as JSON: ${(error as Error).message}\nNothing was stored.`);
  }
  await storeVersion(context, raw, `import ${basename(file)}`, values['dry-run'] ?? false);
}

async function exportCatalogue(context: AdminContext, args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { version: { type: 'string' } }, catalogueUsage);
  const [file, ...rest] = positionals;
  if (rest.length > 0) throw new AdminInputError(`Usage: npm run admin -- ${catalogueUsage}`);
  let document: Record<string, unknown>;
  let origin: string;
  if (values.version !== undefined) {
    const version = Number(values.version);
    const [row] = Number.isInteger(version) ? await context.db.select().from(titleCatalogueVersion).where(eq(titleCatalogueVersion.version, version)) : [];
    if (!row) throw new AdminInputError(`No stored catalogue version ${values.version}. See: npm run admin -- catalogue versions`);
    ({ document } = row);
    origin = `database version ${row.version}`;
  } else {
    ({ document, origin } = await activeSource(context));
  }
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (file) {
    writeFileSync(file, json);
    context.print(`Catalogue (${origin}) written to ${file}.`);
  } else {
    context.write(json);
  }
}

async function listVersions(context: AdminContext, args: string[]): Promise<void> {
  const { positionals } = parse(args, {}, catalogueUsage);
  if (positionals.length > 0) throw new AdminInputError(`Usage: npm run admin -- ${catalogueUsage}`);
  const rows = await context.db
    .select({ version: titleCatalogueVersion.version, source: titleCatalogueVersion.source, changes: titleCatalogueVersion.changes, createdAt: titleCatalogueVersion.createdAt })
    .from(titleCatalogueVersion)
    .orderBy(desc(titleCatalogueVersion.version));
  if (rows.length === 0) {
    context.print(`No stored versions: the servers use ${loadCatalogueFile(context.config.titlesFile).origin}.`);
    return;
  }
  rows.forEach((row, index) => {
    const summary = row.changes.at(-1) ?? '';
    context.print(`${String(row.version).padStart(4)} ${row.createdAt.toISOString()} ${row.source}${index === 0 ? ' (active)' : ''}  ${summary}`);
  });
}

export async function catalogueCommand(context: AdminContext, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'import') return importCatalogue(context, rest);
  if (sub === 'export') return exportCatalogue(context, rest);
  if (sub === 'versions') return listVersions(context, rest);
  throw new AdminInputError(`${sub ? `Unknown catalogue command ${sub}.\n` : ''}Usage: npm run admin -- ${catalogueUsage}`);
}

/**
 * One title's customer-centre contact details as a new catalogue version. Details set here
 * are taken as the publisher's own (contactIsPlaceholder false) unless --placeholder says not.
 */
export async function contactsCommand(context: AdminContext, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'set') throw new AdminInputError(`${sub ? `Unknown contacts command ${sub}.\n` : ''}Usage: npm run admin -- ${contactsUsage}`);
  const { values, positionals } = parse(rest, { phone: { type: 'string' }, email: { type: 'string' }, placeholder: { type: 'boolean' }, 'dry-run': { type: 'boolean' } }, contactsUsage);
  const [code, ...extra] = positionals;
  if (!code || extra.length > 0) throw new AdminInputError(`Give one title code.\nUsage: npm run admin -- ${contactsUsage}`);
  if (values.phone === undefined && values.email === undefined && values.placeholder === undefined) {
    throw new AdminInputError(`Say what to change: --phone, --email and/or --placeholder.\nUsage: npm run admin -- ${contactsUsage}`);
  }
  const active = await activeSource(context);
  const title = active.catalogue.findByTitleCode(code);
  if (!title) throw new AdminInputError(`Unknown title code ${code}: no title in the catalogue has it.`);
  const document = structuredClone(active.document);
  const titles = Array.isArray(document['titles']) ? (document['titles'] as unknown[]) : [];
  const raw = titles.find(
    (entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && String((entry as Record<string, unknown>)['titleCode']).toUpperCase() === title.titleCode,
  );
  // Unreachable for a catalogue that validated: every entry has its titleCode.
  if (!raw) throw new Error(`title ${title.titleCode} not found in the catalogue document`);
  if (values.phone !== undefined) raw['customerCenterPhoneNumber'] = values.phone.trim();
  if (values.email !== undefined) raw['customerCenterEmail'] = values.email.trim();
  raw['contactIsPlaceholder'] = values.placeholder ?? false;
  await storeVersion(context, document, `contacts set ${title.titleCode}`, values['dry-run'] ?? false);
}
