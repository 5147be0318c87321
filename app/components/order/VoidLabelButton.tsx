import { BlockStack, Button, Modal, Text } from "@shopify/polaris";
import { useRef, useState } from "react";
import { useT } from "../../i18n/translate";

/**
 * The order page's "Void label" for one label (decision 0112). The click only opens a confirmation that says what
 * happens (the Shopify fulfillment with this tracking number is cancelled, the label is never printed again, nothing
 * is bought) and that the label service has no cancel: a refund, if due, is asked of the service with the label id
 * and reference shown. Only the dialog's "Void label" submits the form the button sits in (the page's, with the
 * `voidLabel` intent and the label's id). Polaris' Modal, as for the purchase guard.
 */
export function VoidLabelButton({
  orderName,
  trackingNumber,
  serviceLabelId,
  reference,
  disabled,
  loading,
}: {
  orderName: string;
  trackingNumber: string;
  serviceLabelId: string;
  reference: string;
  disabled: boolean;
  loading: boolean;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  const confirm = () => {
    setConfirming(false);
    // The modal is rendered outside the form (a portal): submit the form the button sits in, through Remix.
    anchor.current?.closest("form")?.requestSubmit();
  };
  return (
    <span ref={anchor}>
      <Button tone="critical" variant="plain" disabled={disabled} loading={loading} onClick={() => setConfirming(true)}>
        {t("void.button")}
      </Button>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t("void.confirm.title", { order: orderName })}
        primaryAction={{ content: t("void.confirm.action"), destructive: true, onAction: confirm }}
        secondaryActions={[{ content: t("void.confirm.keep"), onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <BlockStack gap="200">
            <Text as="p">{t("void.confirm.body", { tracking: trackingNumber })}</Text>
            <Text as="p" fontWeight="semibold">
              {t("void.confirm.noRefund", { labelId: serviceLabelId, reference })}
            </Text>
          </BlockStack>
        </Modal.Section>
      </Modal>
    </span>
  );
}
