import { Badge, BlockStack, Button, Card, Collapsible, InlineGrid, InlineStack, Select, Text } from "@shopify/polaris";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import type { SaveOutcome } from "../../labels/customs-descriptions.server";
import { CUSTOMS_DESCRIPTION_MAX } from "../../shipping/customs-descriptions";
import type { Cn23Data } from "../../label-service/contract";
import { useT } from "../../i18n/translate";
import { EditableField } from "./EditableField";

/**
 * The CN23 lines. Where no customs declaration is needed (same customs territory: domestic, EU to EU) the section is
 * collapsed and says "not required"; its fields stay in the form, unchanged unless the merchant opens and edits them.
 */
export function CustomsSection({
  cn23,
  required,
  shippingCurrency,
  value,
  onChange,
  errors,
  edits,
  products = [],
}: {
  cn23: Cn23Data | undefined;
  required: boolean;
  shippingCurrency: string;
  value: (name: string, initial: string) => string;
  onChange: (name: string, value: string) => void;
  errors: Record<string, string>;
  /** What the merchant typed; sent as hidden fields while the lines are collapsed (closed fields are not rendered). */
  edits: Record<string, string>;
  /** The product behind each CN23 line (same order), for its "Save for this product". */
  products?: readonly CustomsLineProduct[];
}) {
  const t = useT();
  const hasError = Object.keys(errors).some((field) => field.startsWith("cn23."));
  const [open, setOpen] = useState(required);
  const shown = open || hasError;
  const lines = cn23 ? (
    <BlockStack gap="200">
      <InlineGrid columns={{ xs: 1, sm: 2 }} gap="200">
        <Select
          name="cn23.category"
          label={t("settings.shipping.category")}
          value={value("cn23.category", cn23.category)}
          onChange={(next) => onChange("cn23.category", next)}
          error={errors["cn23.category"]}
          options={(["1", "2", "3", "4", "5", "6"] as const).map((category) => ({ label: t(`settings.shipping.category.${category}`), value: category }))}
        />
        <EditableField
          name="cn23.shipping_price"
          label={t("order.cn23.shippingPrice", { currency: shippingCurrency })}
          value={value("cn23.shipping_price", cn23.shipping_price)}
          onChange={onChange}
          error={errors["cn23.shipping_price"]}
        />
      </InlineGrid>
      {cn23.products.map((product, index) => {
        const field = (name: string) => `cn23.products.${index}.${name}`;
        return (
          <InlineGrid key={index} columns={{ xs: 1, sm: 2, md: 5 }} gap="200">
            <EditableField name={field("description")} label={`${t("order.cn23.item")} (×${product.quantity})`} value={value(field("description"), product.description)} onChange={onChange} error={errors[field("description")]} />
            <EditableField name={field("unit_price")} label={`${t("order.cn23.unitPrice")} ${product.currency_code}`} value={value(field("unit_price"), product.unit_price)} onChange={onChange} error={errors[field("unit_price")]} />
            <EditableField name={field("weight")} label={t("order.cn23.weight")} value={value(field("weight"), product.weight)} onChange={onChange} error={errors[field("weight")]} />
            <EditableField name={field("country_code")} label={t("order.cn23.origin")} value={value(field("country_code"), product.country_code)} onChange={onChange} error={errors[field("country_code")]} />
            <EditableField name={field("hs_code")} label={t("order.cn23.hsCode")} value={value(field("hs_code"), product.hs_code ?? "")} onChange={onChange} error={errors[field("hs_code")]} />
            {products[index] ? <SaveForProduct product={products[index]} description={value(field("description"), product.description)} /> : null}
          </InlineGrid>
        );
      })}
    </BlockStack>
  ) : (
    <Text as="p">{t("order.customs.none")}</Text>
  );
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack align="space-between" blockAlign="center">
          <InlineStack gap="200" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {t("order.customs")}
            </Text>
            {required ? null : <Badge>{t("order.customs.notRequired")}</Badge>}
          </InlineStack>
          {required || !cn23 ? null : (
            <Button variant="plain" onClick={() => setOpen(!shown)} ariaExpanded={shown} ariaControls="cn23-lines">
              {t(shown ? "order.customs.hide" : "order.customs.show")}
            </Button>
          )}
        </InlineStack>
        {required ? (
          lines
        ) : (
          <>
            <Text as="p" tone="subdued">
              {t("order.customs.notRequiredHelp")}
            </Text>
            <Collapsible id="cn23-lines" open={shown}>
              {lines}
            </Collapsible>
            {shown
              ? null
              : Object.entries(edits)
                  .filter(([name]) => name.startsWith("cn23."))
                  .map(([name, typed]) => <input key={name} type="hidden" name={name} value={typed} />)}
          </>
        )}
      </BlockStack>
    </Card>
  );
}

export interface CustomsLineProduct {
  productId: string | null;
  title: string;
  saved: boolean;
}

/**
 * Saves the line's description (as typed) as the product's English customs description, for every later order of it
 * (posted to the Customs descriptions page's action; the order form itself is not submitted).
 */
function SaveForProduct({ product, description }: { product: CustomsLineProduct; description: string }) {
  const t = useT();
  const fetcher = useFetcher<SaveOutcome>();
  const outcome = fetcher.data;
  if (!product.productId) {
    return (
      <Text as="p" tone="subdued">
        {t("customs.line.noProduct")}
      </Text>
    );
  }
  const saved = fetcher.state === "idle" && outcome?.ok === true;
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center">
        <Button
          loading={fetcher.state !== "idle"}
          accessibilityLabel={`${t("customs.saveForProduct")}: ${product.title}`}
          onClick={() => fetcher.submit({ productId: product.productId ?? "", productTitle: product.title, description }, { method: "post", action: "/app/customs" })}
        >
          {t("customs.saveForProduct")}
        </Button>
        {product.saved || saved ? <Badge tone="success">{t("customs.saved")}</Badge> : null}
      </InlineStack>
      {saved ? (
        <Text as="p" tone="success">
          {t("customs.line.saved")}
        </Text>
      ) : outcome && !outcome.ok && fetcher.state === "idle" ? (
        <Text as="p" tone="critical">
          {t(`customs.error.${outcome.error}`, { max: CUSTOMS_DESCRIPTION_MAX })}
        </Text>
      ) : null}
    </BlockStack>
  );
}
