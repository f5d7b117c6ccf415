import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { occasionalSweep } from '../../lib/occasional-sweep.ts';
import type { Db } from '../../db/client.ts';
import { idpPayload } from '../../db/schema.ts';

/** Expired rows are swept at most this often per process; `find` ignores them meanwhile. */
const SWEEP_INTERVAL_MS = 60_000;

export interface PayloadStoreOptions {
  db: Db;
  now: () => Date;
  /** Sweep failures are not the caller's problem (the row is ignored anyway); they are logged. */
  onSweepError?: (error: unknown) => void;
}

/**
 * oidc-provider's storage on table `idp_payload`, one row per model instance. Every
 * instance of the server reads and writes the same rows, so sessions, codes and grants
 * survive restarts and work behind a load balancer.
 */
export function createPayloadAdapterFactory(options: PayloadStoreOptions): (model: string) => Adapter {
  const sweepExpired = occasionalSweep({
    intervalMs: SWEEP_INTERVAL_MS,
    sweep: (at) => options.db.delete(idpPayload).where(lt(idpPayload.expiresAt, at)),
    ...(options.onSweepError ? { onError: options.onSweepError } : {}),
  });
  return (model) => new PayloadAdapter(model, options, sweepExpired);
}

const epochSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

class PayloadAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly options: PayloadStoreOptions,
    private readonly sweepExpired: (at: Date) => Promise<void>,
  ) {}

  private get db(): Db {
    return this.options.db;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const now = this.options.now();
    const row = {
      payload,
      grantId: payload.grantId ?? null,
      userCode: payload.userCode ?? null,
      uid: payload.uid ?? null,
      expiresAt: expiresIn ? new Date(now.getTime() + expiresIn * 1000) : null,
    };
    // consumed_at is left as it is: re-saving a consumed code must not make it usable again.
    await this.db
      .insert(idpPayload)
      .values({ model: this.model, id, ...row })
      .onConflictDoUpdate({ target: [idpPayload.model, idpPayload.id], set: row });
    await this.sweepExpired(now);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(idpPayload.id, id));
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(idpPayload.uid, uid));
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findOne(eq(idpPayload.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    const now = this.options.now();
    // Both: the column for queries and operators, the payload field for oidc-provider.
    await this.db
      .update(idpPayload)
      .set({ consumedAt: now, payload: sql`${idpPayload.payload} || jsonb_build_object('consumed', ${epochSeconds(now)}::bigint)` })
      .where(and(eq(idpPayload.model, this.model), eq(idpPayload.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(idpPayload).where(and(eq(idpPayload.model, this.model), eq(idpPayload.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(idpPayload).where(and(eq(idpPayload.model, this.model), eq(idpPayload.grantId, grantId)));
  }

  private async findOne(match: SQL): Promise<AdapterPayload | undefined> {
    const now = this.options.now();
    const [row] = await this.db
      .select({ payload: idpPayload.payload, consumedAt: idpPayload.consumedAt })
      .from(idpPayload)
      .where(and(eq(idpPayload.model, this.model), match, or(isNull(idpPayload.expiresAt), gt(idpPayload.expiresAt, now))))
      .limit(1);
    if (!row) return undefined;
    const payload = row.payload as AdapterPayload;
    // oidc-provider decides "already used" (code replay, refresh token reuse) by this field.
    return row.consumedAt ? { ...payload, consumed: epochSeconds(row.consumedAt) } : payload;
  }
}
