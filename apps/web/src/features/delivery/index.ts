/** What other areas may use of the delivery area. */
export { DeliveryNoticeBanner, useTodaysDeliveryNotices } from './components/delivery-notice-banner.tsx';
export { AddressFields, addressFieldIds, emptyAddress } from './components/address-form.tsx';
export { addressLines, dayAndMonth } from './format.ts';
