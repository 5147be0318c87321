import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigate, useSearchParams } from "@remix-run/react";
import {
  Badge,
  BlockStack,
  Button,
  Card,
  EmptyState,
  IndexTable,
  InlineStack,
  Link,
  Page,
  Text,
  TextField,
  useIndexResourceState,
} from "@shopify/polaris";
import { useEffect, useState } from "react";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { useT } from "../i18n/translate";
import type { MessageKey } from "../i18n/messages";
import { labelStatusByOrder, type OrderLabelStatus } from "../labels/order-status.server";
import { answeringShopifyBusy } from "../shopify/busy.server";
import { fetchOrdersToShip } from "../shopify/operations/orders-to-ship";

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const url = new URL(request.url);
  const name = url.searchParams.get("q") ?? "";
  const page = await answeringShopifyBusy(fetchOrdersToShip(admin, {
    after: url.searchParams.get("after") ?? undefined,
    before: url.searchParams.get("before") ?? undefined,
    name,
  }));
  const statuses = await labelStatusByOrder(
    db,
    shop,
    page.nodes.map((order) => order.id),
  );
  return {
    q: name,
    pageInfo: page.pageInfo,
    orders: page.nodes.map((order) => ({
      ...order,
      labelStatus: statuses.get(order.id)?.status ?? "none",
      labelUrl: statuses.get(order.id)?.labelUrl ?? null,
    })),
  };
}

const LABEL_TONES: Record<OrderLabelStatus, "success" | "critical" | "warning" | "info" | undefined> = {
  none: undefined,
  pending: "info",
  created: "success",
  failed: "critical",
  needs_review: "warning",
};

function fulfillmentKey(status: string): MessageKey {
  const key = `fulfillment.${status}`;
  return (
    [
      "fulfillment.UNFULFILLED",
      "fulfillment.PARTIALLY_FULFILLED",
      "fulfillment.FULFILLED",
      "fulfillment.IN_PROGRESS",
      "fulfillment.ON_HOLD",
      "fulfillment.SCHEDULED",
    ] as const
  ).find((candidate) => candidate === key) ?? "fulfillment.other";
}

export default function OrdersToShip() {
  const { orders, pageInfo, q } = useLoaderData<typeof loader>();
  const t = useT();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [query, setQuery] = useState(q);
  useEffect(() => setQuery(q), [q]);
  const { selectedResources, allResourcesSelected, handleSelectionChange } = useIndexResourceState(orders);

  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams(searchParams);
    for (const key of ["after", "before", "q"]) next.delete(key);
    for (const [key, value] of Object.entries(params)) if (value) next.set(key, value);
    navigate(`?${next.toString()}`);
  };

  const rows = orders.map((order, index) => (
    <IndexTable.Row id={order.id} key={order.id} position={index} selected={selectedResources.includes(order.id)}>
      <IndexTable.Cell>
        <Link dataPrimaryLink url={`/app/orders/${order.id.split("/").pop()}`} removeUnderline>
          <Text as="span" fontWeight="semibold">
            {order.name}
          </Text>
        </Link>
      </IndexTable.Cell>
      <IndexTable.Cell>{new Date(order.createdAt).toLocaleDateString()}</IndexTable.Cell>
      <IndexTable.Cell>
        {[order.shippingAddress?.city, order.shippingAddress?.countryCodeV2].filter(Boolean).join(", ") || "—"}
      </IndexTable.Cell>
      <IndexTable.Cell>{order.totalWeight == null ? "—" : `${order.totalWeight} g`}</IndexTable.Cell>
      <IndexTable.Cell>
        <Badge tone={LABEL_TONES[order.labelStatus]}>{t(`label.status.${order.labelStatus}`)}</Badge>
      </IndexTable.Cell>
      <IndexTable.Cell>{t(fulfillmentKey(order.displayFulfillmentStatus))}</IndexTable.Cell>
      <IndexTable.Cell>
        <InlineStack gap="200">
          <Button size="slim" url={`/app/orders/${order.id.split("/").pop()}`} variant={order.labelStatus === "none" ? "primary" : undefined}>
            {t(order.labelStatus === "none" ? "orders.action.create" : "orders.action.review")}
          </Button>
          {order.labelUrl ? (
            <Button size="slim" url={order.labelUrl} target="_blank">
              {t("orders.action.openLabel")}
            </Button>
          ) : null}
        </InlineStack>
      </IndexTable.Cell>
    </IndexTable.Row>
  ));

  return (
    <Page title={t("orders.title")}>
      <BlockStack gap="400">
        <Card>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              go({ q: query });
            }}
          >
            <TextField
              label={t("orders.search.label")}
              placeholder={t("orders.search.placeholder")}
              value={query}
              onChange={setQuery}
              autoComplete="off"
              clearButton
              onClearButtonClick={() => go({})}
            />
          </form>
        </Card>
        <Card padding="0">
          {orders.length === 0 ? (
            <EmptyState heading={t("orders.empty.heading")} image="">
              <p>{t("orders.empty.body")}</p>
            </EmptyState>
          ) : (
            <IndexTable
              resourceName={{ singular: t("orders.resource.singular"), plural: t("orders.resource.plural") }}
              itemCount={orders.length}
              selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
              onSelectionChange={handleSelectionChange}
              headings={[
                { title: t("orders.column.order") },
                { title: t("orders.column.date") },
                { title: t("orders.column.destination") },
                { title: t("orders.column.weight") },
                { title: t("orders.column.label") },
                { title: t("orders.column.fulfillment") },
                { title: t("orders.column.actions") },
              ]}
              pagination={{
                hasNext: pageInfo.hasNextPage,
                hasPrevious: pageInfo.hasPreviousPage,
                onNext: () => go({ after: pageInfo.endCursor ?? "", q }),
                onPrevious: () => go({ before: pageInfo.startCursor ?? "", q }),
              }}
            >
              {rows}
            </IndexTable>
          )}
        </Card>
      </BlockStack>
    </Page>
  );
}
