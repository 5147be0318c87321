import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useT } from "../i18n/translate";

/**
 * An error inside the app's frame, in the merchant's language: "not found" for a 404 (an unknown order), a general
 * message otherwise. Never the raw error text or a stack (the server logs those).
 */
export function AppErrorPage() {
  const error = useRouteError();
  const t = useT();
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
