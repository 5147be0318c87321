/** Settings: a sender per Shopify location (decision 0115). One form per location; errors shown under their fields. */
import { Form, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, FormLayout, InlineStack, Text, TextField } from "@shopify/polaris";
import { useContext, useState } from "react";
import type { MessageKey } from "../../i18n/messages";
import { LocaleContext, useT } from "../../i18n/translate";
import { describeFieldError, type FieldError } from "../../settings/field-errors";

export interface LocationRow {
  locationId: string;
  name: string;
  saved: boolean;
  gone: boolean;
  fields: Record<string, string>;
}

/** The last location action, as the route returns it. */
export interface LocationActionResult {
  intent: "saveLocationSender" | "removeLocationSender";
  ok: boolean;
  locationId: string;
  locationName: string;
  fieldErrors?: Record<string, FieldError>;
  fields?: Record<string, string>;
  notConfigured?: true;
}

const FIELDS: [name: string, label: MessageKey, type?: "email"][] = [
  ["sender.company", "settings.shipping.company"],
  ["sender.firstName", "settings.shipping.firstName"],
  ["sender.lastName", "settings.shipping.lastName"],
  ["sender.address1", "settings.shipping.address1"],
  ["sender.address2", "settings.shipping.address2"],
  ["sender.zip", "settings.shipping.zip"],
  ["sender.city", "settings.shipping.city"],
  ["sender.countryCode", "settings.shipping.country"],
  ["sender.phone", "settings.shipping.phone"],
  ["sender.email", "settings.shipping.email", "email"],
];

function SenderField({ name, label, initial, error, type }: { name: string; label: string; initial: string; error?: string; type?: "email" }) {
  const [value, setValue] = useState(initial);
  return <TextField name={name} label={label} value={value} onChange={setValue} autoComplete="off" type={type} error={error} />;
}

function LocationForm({ row, result }: { row: LocationRow; result: LocationActionResult | undefined }) {
  const t = useT();
  const locale = useContext(LocaleContext);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("locationId") === row.locationId;
  const mine = result?.locationId === row.locationId ? result : undefined;
  const fields = mine && !mine.ok && mine.fields ? mine.fields : row.fields;
  const errors = mine && !mine.ok ? mine.fieldErrors : undefined;
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="locationId" value={row.locationId} />
      <input type="hidden" name="locationName" value={row.name} />
    </>
  );
  return (
    <BlockStack gap="300">
      <InlineStack gap="200" blockAlign="center">
        <Text as="h3" variant="headingSm">
          {row.name}
        </Text>
        <Badge tone={row.saved ? "success" : undefined}>{t(row.saved ? "locations.settings.own" : "locations.settings.usesShop")}</Badge>
        {row.gone ? <Badge tone="warning">{t("locations.settings.gone")}</Badge> : null}
      </InlineStack>
      {mine ? (
        <Banner tone={mine.ok ? "success" : "critical"}>
          {t(
            mine.ok
              ? mine.intent === "saveLocationSender"
                ? "locations.settings.saved"
                : "locations.settings.removed"
              : mine.notConfigured
                ? "locations.settings.notConfigured"
                : "locations.settings.notSaved",
            { location: row.name },
          )}
        </Banner>
      ) : null}
      {row.saved ? null : <Text as="p" tone="subdued">{t("locations.settings.prefilled")}</Text>}
      {/* The key resets the fields to what the server holds after each action. */}
      <Form method="post" key={`${row.locationId}-${row.saved}-${mine ? JSON.stringify(mine.fieldErrors ?? {}) : ""}`}>
        {hidden("saveLocationSender")}
        <BlockStack gap="200">
          <FormLayout>
            <FormLayout.Group>
              {FIELDS.slice(0, 3).map(([name, label, type]) => (
                <SenderField key={name} name={name} label={t(label)} initial={fields[name] ?? ""} type={type} error={errors?.[name] ? describeFieldError(errors[name]!, t(label), t, locale) : undefined} />
              ))}
            </FormLayout.Group>
            {FIELDS.slice(3, 5).map(([name, label, type]) => (
              <SenderField key={name} name={name} label={t(label)} initial={fields[name] ?? ""} type={type} error={errors?.[name] ? describeFieldError(errors[name]!, t(label), t, locale) : undefined} />
            ))}
            <FormLayout.Group>
              {FIELDS.slice(5, 8).map(([name, label, type]) => (
                <SenderField key={name} name={name} label={t(label)} initial={fields[name] ?? ""} type={type} error={errors?.[name] ? describeFieldError(errors[name]!, t(label), t, locale) : undefined} />
              ))}
            </FormLayout.Group>
            <FormLayout.Group>
              {FIELDS.slice(8).map(([name, label, type]) => (
                <SenderField key={name} name={name} label={t(label)} initial={fields[name] ?? ""} type={type} error={errors?.[name] ? describeFieldError(errors[name]!, t(label), t, locale) : undefined} />
              ))}
            </FormLayout.Group>
          </FormLayout>
          <InlineStack gap="200">
            <Button submit variant="primary" loading={busy && navigation.formData?.get("intent") === "saveLocationSender"}>
              {t("locations.settings.save", { location: row.name })}
            </Button>
          </InlineStack>
        </BlockStack>
      </Form>
      {row.saved ? (
        <Form method="post">
          {hidden("removeLocationSender")}
          <Button submit loading={busy && navigation.formData?.get("intent") === "removeLocationSender"}>
            {t("locations.settings.remove")}
          </Button>
        </Form>
      ) : null}
    </BlockStack>
  );
}

export function LocationSendersCard({ rows, configured, unavailable, result }: { rows: LocationRow[]; configured: boolean; unavailable: boolean; result: LocationActionResult | undefined }) {
  const t = useT();
  return (
    <Card>
      <BlockStack gap="400">
        <Text as="h2" variant="headingMd">
          {t("locations.settings.title")}
        </Text>
        <Text as="p" tone="subdued">
          {t("locations.settings.intro")}
        </Text>
        {unavailable ? <Banner tone="warning">{t("locations.settings.unavailable")}</Banner> : null}
        {!configured ? <Banner tone="info">{t("locations.settings.notConfigured")}</Banner> : null}
        {!unavailable && rows.length === 0 ? <Text as="p">{t("locations.settings.none")}</Text> : null}
        {configured ? rows.map((row) => <LocationForm key={row.locationId} row={row} result={result} />) : null}
      </BlockStack>
    </Card>
  );
}
