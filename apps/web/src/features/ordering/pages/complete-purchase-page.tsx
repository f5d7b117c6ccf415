import { PurchaseReturn } from '../components/purchase-return.tsx';

/** SPEC §2 /completepurchase: back from card payment. */
export function CompletePurchasePage() {
  return <PurchaseReturn page="completePurchase" />;
}
