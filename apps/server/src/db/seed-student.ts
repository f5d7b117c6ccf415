import { studentPlanId, type FeatureSet } from '@minside/domain';
import { defaultCatalogue } from '@minside/titles';
import type { Db } from './client.ts';
import { plan } from './schema.ts';

const digital: FeatureSet = { plusContent: true, ePaper: true, paper: false, familySharing: false, thirdPartyBundle: false };

/**
 * The student plan of every offered title (modules/student). It is not in the plan list
 * (`sold` false): it is bought only through student verification, never by a plan change.
 */
export async function seedStudentPlans(tx: Pick<Db, 'insert'>, titleCodes: string[] = defaultCatalogue.offered().map((entry) => entry.titleCode)): Promise<void> {
  await tx
    .insert(plan)
    .values(
      titleCodes.map((titleCode) => ({
        ariaPlanId: studentPlanId(titleCode),
        titleCode,
        name: 'Student digital',
        description: 'Alt i Digital til studentpris. Studentstatusen bekreftes med e-postadressen fra studiestedet, og på nytt hvert år.',
        planProductType: 'DIGITAL',
        billingPeriod: 'MONTH',
        priceOre: 9_900,
        features: digital,
        sortOrder: 100,
        sold: false,
      })),
    )
    .onConflictDoNothing();
}
