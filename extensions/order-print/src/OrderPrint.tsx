/** admin.order-details.print-action.render: this order's labels as one PDF in the admin's Print menu. */
import { render } from "preact";
import type { Api } from "@shopify/ui-extensions/admin.order-details.print-action.render";
import { PrintLabels } from "../../shared/PrintLabels";

declare const shopify: Api;

export default async () => {
  render(<PrintLabels i18n={shopify.i18n} orderIds={shopify.data.selected.map((order) => order.id)} />, document.body);
};
