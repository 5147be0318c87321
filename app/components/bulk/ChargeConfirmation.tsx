/**
 * The confirmation a production job (or a production Retry failed) needs: the number of labels that will be charged,
 * then an explicit yes. Embedded in the Shopify admin: an App Bridge modal. In demo mode (no admin around the app):
 * the same sentence and buttons as a plain step in the page.
 */
import { Modal, TitleBar } from "@shopify/app-bridge-react";
import { Banner, BlockStack, Button, InlineStack, Text } from "@shopify/polaris";
import { useContext } from "react";
import { LocaleContext, useT } from "../../i18n/translate";
import { plural } from "./plural";

export function ChargeConfirmation({
  open,
  embedded,
  count,
  kind,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  embedded: boolean;
  count: number;
  kind: "start" | "retry";
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  const locale = useContext(LocaleContext);
  const question = plural(t, locale, kind === "start" ? "bulk.confirm.start" : "bulk.confirm.retry", count);
  const yes = plural(t, locale, "bulk.confirm.yes", count);
  if (embedded) {
    return (
      <Modal id={`bulk-confirm-${kind}`} open={open} onHide={onCancel}>
        <p style={{ padding: "16px" }}>{question}</p>
        <TitleBar title={t("bulk.confirm.title")}>
          {/* App Bridge reads these attributes on the title bar's buttons. */}
          {/* eslint-disable-next-line react/no-unknown-property */}
          <button variant="primary" tone="critical" onClick={onConfirm}>
            {yes}
          </button>
          <button onClick={onCancel}>{t("bulk.confirm.no")}</button>
        </TitleBar>
      </Modal>
    );
  }
  if (!open) return null;
  return (
    <Banner tone="warning" title={t("bulk.confirm.title")}>
      <BlockStack gap="200">
        <Text as="p">{question}</Text>
        <InlineStack gap="200">
          <Button variant="primary" tone="critical" onClick={onConfirm}>
            {yes}
          </Button>
          <Button onClick={onCancel}>{t("bulk.confirm.no")}</Button>
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}
