/**
 * Customs descriptions: the products of the recent orders with the merchant's English description for customs (the
 * CN23 line of every later order of that product). Each row saves on its own; the order page's CN23 lines post their
 * "Save for this product" here too.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Page, Text, TextField } from "@shopify/polaris";
import { useState } from "react";
import { requireAdmin } from "../auth.server";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { useT } from "../i18n/translate";
import { customsDescriptionRows, listCustomsDescriptions, saveCustomsDescription, type CustomsDescriptionRow, type SaveOutcome } from "../labels/customs-descriptions.server";
import { CUSTOMS_DESCRIPTION_MAX } from "../shipping/customs-descriptions";
import { fetchRecentOrderProducts } from "../shopify/operations/recent-order-products";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, admin } = await requireAdmin(request);
  const [seen, saved] = await Promise.all([fetchRecentOrderProducts(admin), listCustomsDescriptions(db, shop)]);
  return { rows: customsDescriptionRows(seen, saved) };
}

export async function action({ request }: ActionFunctionArgs): Promise<SaveOutcome> {
  const { shop } = await requireAdmin(request);
  const form = await readForm(request);
  return saveCustomsDescription(db, shop, Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)])));
}

/** The sentence for a refused save, in the merchant's language. */
function useSaveError(outcome: SaveOutcome | undefined): string | undefined {
  const t = useT();
  return outcome && !outcome.ok ? t(`customs.error.${outcome.error}`, { max: CUSTOMS_DESCRIPTION_MAX }) : undefined;
}

function ProductRow({ row }: { row: CustomsDescriptionRow }) {
  const t = useT();
  const fetcher = useFetcher<typeof action>();
  const [text, setText] = useState(row.description);
  const outcome = fetcher.data;
  const error = useSaveError(outcome);
  const saved = outcome?.ok ? true : row.saved;
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="productId" value={row.productId} />
      <input type="hidden" name="productTitle" value={row.title} />
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h3" variant="headingSm">
            {row.title}
          </Text>
          <Badge tone={saved ? "success" : "attention"}>{t(saved ? "customs.saved" : "customs.notSaved")}</Badge>
          <Text as="span" tone="subdued">
            {row.orderCount === null ? t("customs.onlySaved") : t("customs.inOrders", { count: row.orderCount })}
          </Text>
        </InlineStack>
        <InlineStack gap="200" blockAlign="end" wrap={false}>
          <div style={{ flexGrow: 1 }}>
            <TextField
              name="description"
              label={t("customs.description")}
              helpText={t("customs.help", { max: CUSTOMS_DESCRIPTION_MAX })}
              value={text}
              onChange={setText}
              error={error}
              autoComplete="off"
            />
          </div>
          <Button submit loading={fetcher.state !== "idle"} accessibilityLabel={`${t("customs.save")}: ${row.title}`}>
            {t("customs.save")}
          </Button>
        </InlineStack>
        {outcome?.ok && fetcher.state === "idle" ? (
          <Text as="p" tone="success">
            {t("customs.savedFor", { title: row.title })}
          </Text>
        ) : null}
      </BlockStack>
    </fetcher.Form>
  );
}

export default function CustomsDescriptions() {
  const { rows } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <Page title={t("customs.title")}>
      <BlockStack gap="400">
        <Card>
          <Text as="p">{t("customs.intro")}</Text>
        </Card>
        <Card>
          <BlockStack gap="500">
            {rows.length === 0 ? (
              <Text as="p" tone="subdued">
                {t("customs.empty")}
              </Text>
            ) : (
              rows.map((row) => <ProductRow key={row.productId} row={row} />)
            )}
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}
