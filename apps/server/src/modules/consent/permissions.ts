import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONSENT_HISTORY_LIMIT,
  consentPermissionSchema,
  consentPermissionsStateSchema,
  consentPermissionsUpdateSchema,
  consentPermissions,
  errorCodes,
  type ConsentPermission,
  type ConsentPermissionRecord,
  type ConsentPermissionsState,
  type ConsentPermissionsUpdate,
} from '@minside/domain';
import type { Db } from '../../db/client.ts';
import { consentPermissionChoice } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { apiErrors } from '../../lib/api-errors.ts';

export interface ConsentPermissionDeps {
  db: Db;
  now: () => Date;
  isOfferedTitle: (titleCode: string) => boolean;
}

type Row = typeof consentPermissionChoice.$inferSelect;

function toRecord(row: Row): ConsentPermissionRecord {
  return { permission: consentPermissionSchema.parse(row.permission), granted: row.granted, titleCode: row.titleCode, givenAt: row.givenAt.toISOString() };
}

/**
 * The permissions of the consent pages (/samtykke1–3): like the cookie consent of
 * service.ts, every change is a row, so "what was given when" is the table itself.
 */
export function createConsentPermissionService({ db, now, isOfferedTitle }: ConsentPermissionDeps) {
  async function stateOf(userId: string, tx: Pick<Db, 'select'> = db): Promise<ConsentPermissionsState> {
    const rows = await tx
      .select()
      .from(consentPermissionChoice)
      .where(eq(consentPermissionChoice.userId, userId))
      .orderBy(desc(consentPermissionChoice.id))
      .limit(CONSENT_HISTORY_LIMIT * consentPermissions.length);
    const history = rows.map(toRecord);
    const current: ConsentPermissionsState['current'] = {};
    for (const record of history) current[record.permission] ??= record;
    return { current, history: history.slice(0, CONSENT_HISTORY_LIMIT) };
  }

  return {
    getPermissions: (userId: string) => stateOf(userId),

    /** Stores each named permission whose value differs from what holds now; the rest add nothing. */
    async updatePermissions(userId: string, body: ConsentPermissionsUpdate): Promise<ConsentPermissionsState> {
      const titleCode = body.titleCode?.toUpperCase() ?? null;
      if (titleCode && !isOfferedTitle(titleCode)) throw new AppError(400, errorCodes.unknownTitle, `Fant ingen avis med koden ${titleCode}.`);
      await db.transaction(async (tx) => {
        const { current } = await stateOf(userId, tx);
        const changed = (Object.entries(body.permissions) as [ConsentPermission, boolean | undefined][]).filter(
          ([permission, granted]) => granted !== undefined && (current[permission]?.granted ?? false) !== granted,
        );
        if (changed.length === 0) return;
        const givenAt = now();
        await tx.insert(consentPermissionChoice).values(changed.map(([permission, granted]) => ({ userId, permission, granted: granted === true, titleCode, givenAt })));
      });
      return stateOf(userId);
    },
  };
}

export type ConsentPermissionService = ReturnType<typeof createConsentPermissionService>;

const errors = apiErrors(400, 401, 403);

/** The signed-in user's own permissions (under /api/consent, signed in); there is no id to pass, so nobody can read another's. */
export const consentPermissionRoutes: FastifyPluginAsyncZod<{ permissions: ConsentPermissionService }> = async (app, { permissions }) => {
  app.get('/permissions', { schema: { tags: ['consent'], response: { 200: consentPermissionsStateSchema, ...errors } } }, async (request) => permissions.getPermissions(request.user.id));

  app.put('/permissions', { schema: { tags: ['consent'], body: consentPermissionsUpdateSchema, response: { 200: consentPermissionsStateSchema, ...errors } } }, async (request) =>
    permissions.updatePermissions(request.user.id, request.body),
  );
};
