import { PurchaseReturn } from '../components/purchase-return.tsx';

/** SPEC §2 /completevippspurchase: back from Vipps. */
export function CompleteVippsPurchasePage() {
  return <PurchaseReturn page="completeVippsPurchase" />;
}
