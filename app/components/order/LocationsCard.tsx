/** The order page's locations (decision 0115): an order shipping from several gets one label per location. */
import { Form } from "@remix-run/react";
import { BlockStack, Card, InlineStack, Text } from "@shopify/polaris";
import { useT } from "../../i18n/translate";
import { PurchaseButton } from "./PurchaseButton";

export interface OrderLocationView {
  locationId: string;
  locationName: string;
  open: boolean;
  sender: string;
  senderIsLocation: boolean;
  tracking: string[];
}

export function LocationsCard({
  locations,
  orderName,
  box,
  charged,
  disabled,
  busy,
}: {
  locations: OrderLocationView[];
  orderName: string;
  box: string;
  charged: boolean;
  disabled: boolean;
  busy: boolean;
}) {
  const t = useT();
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {t("locations.order.title", { count: String(locations.length) })}
        </Text>
        <Text as="p" tone="subdued">
          {t("locations.order.intro")}
        </Text>
        {locations.map((location) => (
          <BlockStack key={location.locationId} gap="100">
            <Text as="h3" variant="headingSm">
              {location.locationName}
            </Text>
            <Text as="p">{t("locations.order.sender", { sender: location.senderIsLocation ? location.sender : t("locations.order.shopSender") })}</Text>
            {location.tracking.length > 0 ? (
              <Text as="p" tone="success">
                {t("locations.order.labelled", { tracking: location.tracking.join(", ") })}
              </Text>
            ) : location.open ? (
              <Form method="post">
                <input type="hidden" name="intent" value="createForLocation" />
                <input type="hidden" name="location" value={location.locationId} />
                <input type="hidden" name="box" value={box} />
                <InlineStack>
                  <PurchaseButton charged={charged} orderName={orderName} disabled={disabled} loading={busy}>
                    {t("locations.order.create", { location: location.locationName })}
                  </PurchaseButton>
                </InlineStack>
              </Form>
            ) : (
              <Text as="p" tone="subdued">
                {t("locations.order.nothingLeft")}
              </Text>
            )}
          </BlockStack>
        ))}
      </BlockStack>
    </Card>
  );
}
