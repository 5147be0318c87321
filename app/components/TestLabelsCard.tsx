import { Form, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, InlineStack, Text } from "@shopify/polaris";
import { useT } from "../i18n/translate";

/** "Fulfil orders with test labels" (decision 0170): off by default, offered on a development store only. */
export function TestLabelsCard({ on, developmentStore }: { on: boolean; developmentStore: boolean }) {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "setFulfilTestLabels";
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("real.testLabels.title")}
          </Text>
          <Badge tone={on ? "attention" : undefined}>{t(on ? "real.testLabels.on" : "real.testLabels.off")}</Badge>
        </InlineStack>
        <Text as="p">{t("real.testLabels.help")}</Text>
        {!developmentStore && !on ? (
          <Text as="p" tone="subdued">
            {t("real.testLabels.notDevelopment")}
          </Text>
        ) : (
          <Form method="post">
            <input type="hidden" name="intent" value="setFulfilTestLabels" />
            <input type="hidden" name="on" value={on ? "false" : "true"} />
            <InlineStack>
              <Button submit loading={busy}>
                {t(on ? "real.testLabels.turnOff" : "real.testLabels.turnOn")}
              </Button>
            </InlineStack>
          </Form>
        )}
      </BlockStack>
    </Card>
  );
}
