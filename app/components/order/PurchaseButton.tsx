import { Button, Modal, Text } from "@shopify/polaris";
import { useRef, useState } from "react";
import { useT } from "../../i18n/translate";

/**
 * The order page's purchase button (issue 16 item 11). A staging (free) label is bought on click, as before. A
 * production label is charged: the click opens a confirmation stating that one charged label will be bought for the
 * order, and only "Buy 1 charged label" submits the page's form. Polaris' Modal, so the guard is the same inside the
 * Shopify admin and in the demo (where App Bridge is absent).
 */
export function PurchaseButton({
  charged,
  orderName,
  disabled,
  loading,
  tone,
  children,
}: {
  charged: boolean;
  orderName: string;
  disabled: boolean;
  loading: boolean;
  tone?: "critical";
  children: string;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  if (!charged) {
    return (
      <Button submit variant="primary" tone={tone} disabled={disabled} loading={loading}>
        {children}
      </Button>
    );
  }
  const buy = () => {
    setConfirming(false);
    // The modal is rendered outside the form (a portal): submit the form the button sits in, through Remix.
    anchor.current?.closest("form")?.requestSubmit();
  };
  return (
    <span ref={anchor}>
      <Button variant="primary" tone={tone} disabled={disabled} loading={loading} onClick={() => setConfirming(true)}>
        {children}
      </Button>
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        title={t("real.confirm.title")}
        primaryAction={{ content: t("real.confirm.buy"), destructive: true, onAction: buy }}
        secondaryActions={[{ content: t("real.confirm.cancel"), onAction: () => setConfirming(false) }]}
      >
        <Modal.Section>
          <Text as="p">{t("real.confirm.body", { order: orderName })}</Text>
        </Modal.Section>
      </Modal>
    </span>
  );
}
