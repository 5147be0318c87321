/** admin.order-index.selection-print-action.render: the selected orders' labels as one PDF (per format). */
import { render } from "preact";
import type { Api } from "@shopify/ui-extensions/admin.order-index.selection-print-action.render";
import { PrintLabels } from "../../shared/PrintLabels";

declare const shopify: Api;

export default async () => {
  render(<PrintLabels i18n={shopify.i18n} orderIds={shopify.data.selected.map((order) => order.id)} />, document.body);
};
