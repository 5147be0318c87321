import { Form, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineGrid, Select, Text, TextField } from "@shopify/polaris";
import { useCallback, useContext, useEffect, useRef, useState } from "react";
import type { MessageKey } from "../i18n/messages";
import { LocaleContext, useT } from "../i18n/translate";
import { LABEL_FORMATS } from "../label-service/label-formats";
import { describeFieldError, type FieldError } from "../settings/field-errors";
import { LoadingLine } from "./loading";
import { useAppBridgeUi } from "./settings/app-bridge";
import { SettingsSaveBar } from "./settings/SettingsSaveBar";

export interface ServiceOption {
  label: string;
  value: string;
}

interface Props {
  fields: Record<string, string>;
  configured: boolean;
  /** Errors from the last save, by field name: each shown under its field. */
  fieldErrors?: Record<string, FieldError>;
  services: Record<"domestic" | "eu" | "world", ServiceOption[]>;
  /** The services are still being asked of the label service (the page does not wait for them). */
  servicesLoading?: boolean;
  maxBoxes: number;
}

/** The error under a field, in the merchant's language, naming the field by its label. */
function useFieldError(errors: Record<string, FieldError> | undefined, name: string, label: string): string | undefined {
  const t = useT();
  const locale = useContext(LocaleContext);
  const error = errors?.[name];
  return error ? describeFieldError(error, label, t, locale) : undefined;
}

/** A text field bound to one flat settings field. */
function Field({ name, label, fields, errors, type }: { name: string; label: string; fields: Record<string, string>; errors?: Record<string, FieldError>; type?: "number" | "email" }) {
  const [value, setValue] = useState(fields[name] ?? "");
  const error = useFieldError(errors, name, label);
  return <TextField name={name} label={label} value={value} onChange={setValue} autoComplete="off" type={type} error={error} />;
}

function Toggle({ name, label, fields }: { name: string; label: string; fields: Record<string, string> }) {
  const [checked, setChecked] = useState(fields[name] === "true");
  return (
    <>
      <input type="hidden" name={name} value={String(checked)} />
      <Checkbox label={label} checked={checked} onChange={setChecked} />
    </>
  );
}

function Choice({ name, label, fields, options, errors }: { name: string; label: string; fields: Record<string, string>; options: ServiceOption[]; errors?: Record<string, FieldError> }) {
  const [value, setValue] = useState(fields[name] ?? options[0]?.value ?? "");
  const error = useFieldError(errors, name, label);
  const all = options.some((option) => option.value === value) || !value ? options : [{ label: value.replace("|", " · "), value }, ...options];
  return <Select name={name} label={label} options={all} value={value} onChange={setValue} error={error} />;
}

/** The form's values as sent, to tell whether anything changed since it was loaded. */
function formSnapshot(form: HTMLFormElement): string {
  return [...new FormData(form).entries()].map(([key, value]) => `${key}=${String(value)}`).join("&");
}

export function ShippingSettingsCard({ fields, configured, fieldErrors, services, servicesLoading, maxBoxes }: Props) {
  const t = useT();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "saveShipping";
  // --- unsaved-changes guard (issue 16 item 10, decision 0173): App Bridge's Save Bar, or a Polaris fallback.
  const ui = useAppBridgeUi();
  const form = useRef<HTMLFormElement>(null);
  const loaded = useRef<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0);
  const [dirty, setDirty] = useState(false);
  useEffect(() => {
    // Loaded (or saved, or discarded): what the form holds now is the reference.
    loaded.current = form.current ? formSnapshot(form.current) : undefined;
    setDirty(false);
  }, [fields, generation]);
  // After React applied the change (a toggle's hidden input follows its state), compare with what was loaded.
  const check = useCallback(() => {
    setTimeout(() => {
      if (form.current && loaded.current !== undefined) setDirty(formSnapshot(form.current) !== loaded.current);
    }, 0);
  }, []);
  const save = () => form.current?.requestSubmit();
  const discard = () => setGeneration((current) => current + 1);
  // --- end guard
  const boxNames = Array.from({ length: maxBoxes }, (_, index) => fields[`boxes.${index}.name`]).filter((name): name is string => Boolean(name));
  const text = (name: string, label: MessageKey, type?: "number" | "email") => (
    <Field name={name} label={t(label)} fields={fields} errors={fieldErrors} type={type} />
  );
  return (
    <Card>
      <Form method="post" ref={form} key={generation} onChange={check}>
        <input type="hidden" name="intent" value="saveShipping" />
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            {t("settings.shipping.title")}
          </Text>
          {configured ? null : <Banner tone="info">{t("settings.shipping.notConfigured")}</Banner>}
          <Text as="h3" variant="headingSm">
            {t("settings.shipping.sender")}
          </Text>
          <FormLayout>
            <FormLayout.Group>
              {text("sender.company", "settings.shipping.company")}
              {text("sender.firstName", "settings.shipping.firstName")}
              {text("sender.lastName", "settings.shipping.lastName")}
            </FormLayout.Group>
            {text("sender.address1", "settings.shipping.address1")}
            {text("sender.address2", "settings.shipping.address2")}
            <FormLayout.Group>
              {text("sender.zip", "settings.shipping.zip")}
              {text("sender.city", "settings.shipping.city")}
              {text("sender.countryCode", "settings.shipping.country")}
            </FormLayout.Group>
            <FormLayout.Group>
              {text("sender.phone", "settings.shipping.phone")}
              {text("sender.email", "settings.shipping.email", "email")}
            </FormLayout.Group>
            <Choice name="labelFormat" label={t("settings.shipping.labelFormat")} fields={fields} errors={fieldErrors} options={LABEL_FORMATS.map((format) => ({ label: t(`format.${format}`), value: format }))} />
          </FormLayout>
          <Text as="h3" variant="headingSm">
            {t("settings.shipping.boxes")}
          </Text>
          {Array.from({ length: maxBoxes }, (_, index) => (
            <InlineGrid key={index} columns={{ xs: 1, sm: 2, md: 5 }} gap="200">
              {text(`boxes.${index}.name`, "settings.shipping.boxName")}
              {text(`boxes.${index}.lengthCm`, "settings.shipping.boxLength", "number")}
              {text(`boxes.${index}.widthCm`, "settings.shipping.boxWidth", "number")}
              {text(`boxes.${index}.heightCm`, "settings.shipping.boxHeight", "number")}
              {text(`boxes.${index}.packagingWeightGrams`, "settings.shipping.boxWeight", "number")}
            </InlineGrid>
          ))}
          <FormLayout>
            <Choice name="defaultBox" label={t("settings.shipping.defaultBox")} fields={fields} errors={fieldErrors} options={boxNames.map((name) => ({ label: name, value: name }))} />
            {text("defaultWeightGrams", "settings.shipping.defaultWeight", "number")}
          </FormLayout>
          <Text as="h3" variant="headingSm">
            {t("settings.shipping.carriers")}
          </Text>
          <FormLayout>
            <FormLayout.Group>
              {(["domestic", "eu", "world"] as const).map((zone) => (
                <Choice key={zone} name={`carriers.${zone}`} label={t(`settings.shipping.zone.${zone}`)} fields={fields} errors={fieldErrors} options={services[zone]} />
              ))}
            </FormLayout.Group>
            {servicesLoading ? <LoadingLine text={t("real.services.loading")} /> : null}
          </FormLayout>
          <Text as="h3" variant="headingSm">
            {t("settings.shipping.cn23")}
          </Text>
          <FormLayout>
            <FormLayout.Group>
              <Choice
                name="cn23.category"
                label={t("settings.shipping.category")}
                fields={fields}
                errors={fieldErrors}
                options={(["1", "2", "3", "4", "5", "6"] as const).map((value) => ({ label: t(`settings.shipping.category.${value}`), value }))}
              />
              {text("cn23.fallbackOriginCountry", "settings.shipping.fallbackOrigin")}
            </FormLayout.Group>
            <Toggle name="includeHsCode" label={t("settings.shipping.includeHsCode")} fields={fields} />
            <Toggle name="foldAddressLine2" label={t("settings.shipping.foldAddressLine2")} fields={fields} />
            <Toggle name="notifyCustomer" label={t("settings.shipping.notifyCustomer")} fields={fields} />
            <input type="hidden" name="descriptionMaxLength" value={fields.descriptionMaxLength ?? "35"} />
          </FormLayout>
          <SettingsSaveBar ui={ui} dirty={dirty} saving={busy} onSave={save} onDiscard={discard} />
          {/* Inside the admin the Save Bar is the form's save; without App Bridge this button stays. */}
          {ui ? null : (
            <Button submit variant="primary" loading={busy}>
              {t("settings.shipping.save")}
            </Button>
          )}
        </BlockStack>
      </Form>
    </Card>
  );
}
