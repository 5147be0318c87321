import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useT } from "../i18n/translate";
import { shopifyBusyFromRouteError } from "../shopify/busy";
import { ShopifyBusyNotice } from "./ShopifyBusyNotice";

/**
 * An error inside the app's frame, in the merchant's language: "not found" for a 404 (an unknown order), "Shopify is busy" (it reloads by itself) for a
 * 503 from the Shopify budget, a general message otherwise. Never the raw error text or a stack (the server logs those).
 */
export function AppErrorPage() {
  const error = useRouteError();
  const t = useT();
  const busy = shopifyBusyFromRouteError(error);
  if (busy) return <ShopifyBusyNotice retryAfterSeconds={busy.retryAfterSeconds} />;
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Page title={t(notFound ? "error.notFound.title" : "error.failed.title")}>
      <Card>
        <BlockStack gap="300">
          <Text as="p">{t(notFound ? "error.notFound.body" : "error.failed.body")}</Text>
          <InlineStack>
            <Button url="/app">{t("error.back")}</Button>
          </InlineStack>
        </BlockStack>
      </Card>
    </Page>
  );
}
