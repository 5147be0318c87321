import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  InlineGrid,
  FormLayout,
  InlineStack,
  Layout,
  Link,
  List,
  Page,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useContext, useState, type ReactNode } from "react";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { localeFromRequest } from "../i18n/locale";
import type { MessageKey } from "../i18n/messages";
import { LocaleContext, useT } from "../i18n/translate";
import { labelServiceClientFor, LabelServiceUnavailableError } from "../labels/gateway.server";
import { handleOrderLabelAction } from "../labels/order-label-actions.server";
import { readNote } from "../labels/notes";
import { isEditableProblem, loadOrderLabel } from "../labels/order-label.server";
import { loadShippingSettingsState } from "../settings/shipping-settings.server";
import { answeringShopifyBusy } from "../shopify/busy.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const url = new URL(request.url);
  const view = await answeringShopifyBusy(loadOrderLabel(db, admin, shop, params.id ?? "", {
    boxName: url.searchParams.get("box") ?? undefined,
    carrierName: url.searchParams.get("carrier") ?? undefined,
    serviceName: url.searchParams.get("service") ?? undefined,
  }));
  if (!view) throw new Response("Order not found", { status: 404 });
  const { configured } = await loadShippingSettingsState(db, shop);
  let services: { carrier: string; name: string; label: string }[] = [];
  let serviceUnavailable = false;
  const country = view.request?.recipient.country ?? view.order.shippingAddress?.countryCodeV2 ?? undefined;
  if (country) {
    try {
      const client = await labelServiceClientFor(shop, view.environment);
      services = (await client.carrierServices(country)).map((service) => ({
        carrier: service.carrier ?? "",
        name: service.name,
        label: service.label ?? service.name,
      }));
    } catch (error) {
      serviceUnavailable = error instanceof LabelServiceUnavailableError;
    }
  }
  return {
    orderName: view.order.name,
    orderId: view.order.id,
    environment: view.environment,
    request: view.preview ?? null,
    problems: view.problems.map((problem) => ({ ...problem, editable: isEditableProblem(problem) })),
    senderConfigured: configured,
    boxes: view.boxes,
    selectedBox: view.selectedBox ?? "",
    shippingPaid: view.order.totalShippingPriceSet.presentmentMoney,
    labels: view.labels.map((label) => ({
      id: label.id,
      trackingNumber: label.trackingNumber,
      trackingUrl: label.trackingUrl,
      labelUrl: label.labelUrl,
      carrier: `${label.carrierName} ${label.carrierServiceName}`,
      environment: label.environment,
      fulfillmentStatus: label.fulfillmentStatus,
      fulfillmentError: readNote(label.fulfillmentError),
      createdAt: label.createdAt.toISOString(),
    })),
    attempts: view.attempts
      .filter(
        (attempt) => attempt.status === "UNKNOWN" || attempt.status === "NEEDS_REVIEW" || attempt.status === "PENDING",
      )
      .map((attempt) => ({ id: attempt.id, status: attempt.status, customReference: attempt.customReference, note: readNote(attempt.errorJson) })),
    services,
    serviceUnavailable,
    nextLabelIndex: view.nextLabelIndex,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  return handleOrderLabelAction(
    { db, admin, shop, orderId: params.id ?? "", locale: localeFromRequest(request) },
    await request.formData(),
  );
}

function RecipientFields({
  recipient,
}: {
  recipient: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["request"]>["recipient"];
}) {
  const t = useT();
  const fields: [string, MessageKey, string | undefined][] = [
    ["recipient.firstname", "order.field.firstname", recipient.firstname],
    ["recipient.lastname", "order.field.lastname", recipient.lastname],
    ["recipient.company_name", "order.field.company", recipient.company_name],
    ["recipient.address_line1", "order.field.address1", recipient.address_line1],
    ["recipient.address_line2", "order.field.address2", recipient.address_line2],
    ["recipient.zip", "order.field.zip", recipient.zip],
    ["recipient.city", "order.field.city", recipient.city],
    ["recipient.phone1", "order.field.phone", recipient.phone1],
    ["recipient.email", "order.field.email", recipient.email],
  ];
  return (
    <FormLayout>
      {fields.map(([name, label, value]) => (
        <EditableField key={name} name={name} label={t(label)} initial={value ?? ""} />
      ))}
      <TextField label={t("order.field.country")} value={recipient.country} disabled autoComplete="off" />
    </FormLayout>
  );
}

function SectionCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          {title}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}

function EditableField({
  name,
  label,
  initial,
  type,
}: {
  name: string;
  label: string;
  initial: string;
  type?: "number";
}) {
  const [value, setValue] = useState(initial);
  return <TextField name={name} label={label} value={value} onChange={setValue} autoComplete="off" type={type} />;
}

export default function OrderLabel() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const locale = useContext(LocaleContext);
  const navigation = useNavigation();
  const [searchParams, setSearchParams] = useSearchParams();
  const busy = navigation.state !== "idle";
  const request = data.request;
  const [category, setCategory] = useState<string>(request?.cn23_data?.category ?? "3");
  const [carrierKey, setCarrierKey] = useState(
    request ? `${request.carrier_name}|${request.carrier_service_name}` : "",
  );
  // Once labelled, "nothing left to ship" is the expected state, not a problem.
  const blocking = data.problems.filter(
    (problem) => problem.severity === "blocking" && !(data.labels.length > 0 && problem.code === "nothing_to_ship"),
  );
  const warnings = data.problems.filter((problem) => problem.severity === "warning");
  const actionProblems = (result && "problems" in result ? result.problems : undefined) ?? [];
  const hasLabel = data.labels.length > 0;
  const inFlight = data.attempts.length > 0;
  const [carrierName, serviceName] = carrierKey.split("|");
  const serviceOptions = data.services.map((service) => ({
    label: `${service.carrier ? `${service.carrier} · ` : ""}${service.label}`,
    value: `${service.carrier || request?.carrier_name}|${service.name}`,
  }));
  if (request && !serviceOptions.some((option) => option.value === carrierKey)) {
    serviceOptions.unshift({ label: `${request.carrier_name} · ${request.carrier_service_name}`, value: carrierKey });
  }
  const text = (message: { en: string; fr: string }) => (locale === "fr" ? message.fr : message.en);

  return (
    <Page
      title={t("order.title", { order: data.orderName })}
      backAction={{ content: t("order.back"), url: "/app" }}
      titleMetadata={
        <Badge tone={data.environment === "production" ? "critical" : "info"}>
          {t(data.environment === "production" ? "env.production" : "env.staging")}
        </Badge>
      }
    >
      <Layout>
        {result && "notice" in result && result.notice ? (
          <Layout.Section>
            <Banner tone={result.tone}>{t(result.notice.key, result.notice.values)}</Banner>
          </Layout.Section>
        ) : null}
        {[...actionProblems, ...blocking].length > 0 ? (
          <Layout.Section>
            <Banner tone="critical" title={t("order.problems.title")}>
              <List>
                {[...actionProblems, ...blocking].map((problem, index) => (
                  <List.Item key={`${problem.code}-${index}`}>
                    <Text as="span" fontWeight="semibold">
                      {text(problem.message)}
                    </Text>{" "}
                    {text(problem.fix)}{" "}
                    <Text as="span" tone="subdued">
                      ({problem.path})
                    </Text>
                  </List.Item>
                ))}
              </List>
            </Banner>
          </Layout.Section>
        ) : null}
        {warnings.length > 0 ? (
          <Layout.Section>
            <Banner tone="warning" title={t("order.warnings.title")}>
              <List>
                {warnings.map((problem, index) => (
                  <List.Item key={`${problem.code}-${index}`}>
                    {text(problem.message)} {text(problem.fix)}
                  </List.Item>
                ))}
              </List>
            </Banner>
          </Layout.Section>
        ) : null}
        {data.serviceUnavailable ? (
          <Layout.Section>
            <Banner tone="warning">{t("order.serviceUnavailable", { environment: data.environment })}</Banner>
          </Layout.Section>
        ) : null}
        {!data.senderConfigured ? (
          <Layout.Section>
            <Banner tone="info" action={{ content: t("order.sender.edit"), url: "/app/settings" }}>
              {t("order.sender.notConfigured")}
            </Banner>
          </Layout.Section>
        ) : null}

        {data.labels.map((label) => (
          <Layout.Section key={label.id}>
            <Card>
              <BlockStack gap="200">
                <InlineStack gap="200" blockAlign="center">
                  <Text as="h2" variant="headingMd">
                    {t("order.label.title")} · {label.carrier}
                  </Text>
                  <Badge
                    tone={
                      label.fulfillmentStatus === "CREATED"
                        ? "success"
                        : label.fulfillmentStatus === "FAILED"
                          ? "critical"
                          : "info"
                    }
                  >
                    {label.fulfillmentStatus === "CREATED"
                      ? t("order.fulfillment.created")
                      : label.fulfillmentStatus === "FAILED"
                        ? t("label.status.failed")
                        : t("order.fulfillment.pending")}
                  </Badge>
                </InlineStack>
                <Text as="p">
                  {t("order.label.tracking")}:{" "}
                  <Text as="span" fontWeight="bold">
                    {label.trackingNumber}
                  </Text>
                </Text>
                <InlineStack gap="300">
                  <Button url={label.labelUrl} target="_blank">
                    {t("order.label.open")}
                  </Button>
                  <Button variant="primary" onClick={() => window.open(label.labelUrl, "_blank")}>
                    {t("order.label.print")}
                  </Button>
                  {label.trackingUrl ? (
                    <Link url={label.trackingUrl} target="_blank">
                      {t("order.label.trackingPage")}
                    </Link>
                  ) : null}
                </InlineStack>
                {label.fulfillmentStatus === "FAILED" ? (
                  <Banner tone="critical">
                    <BlockStack gap="200">
                      <Text as="p">{t("order.fulfillment.failed", { message: label.fulfillmentError?.[locale] ?? "" })}</Text>
                      <Form method="post">
                        <input type="hidden" name="intent" value="retryFulfillment" />
                        <input type="hidden" name="labelId" value={label.id} />
                        <Button submit loading={busy}>
                          {t("order.fulfillment.retry")}
                        </Button>
                      </Form>
                    </BlockStack>
                  </Banner>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ))}

        {data.attempts.map((attempt) => (
          <Layout.Section key={attempt.id}>
            <Banner tone="warning">
              <BlockStack gap="200">
                <Text as="p">
                  {t(attempt.status === "NEEDS_REVIEW" ? "order.attempt.review" : "order.attempt.pending", {
                    reference: attempt.customReference,
                  })}
                </Text>
                {attempt.note ? (
                  <Text as="p" tone="subdued">
                    {attempt.note[locale]}
                  </Text>
                ) : null}
                <InlineStack gap="200">
                  <Form method="post">
                    <input type="hidden" name="intent" value="checkAttempt" />
                    <input type="hidden" name="attemptId" value={attempt.id} />
                    <Button submit loading={busy}>
                      {t("order.attempt.check")}
                    </Button>
                  </Form>
                  {attempt.status === "NEEDS_REVIEW" ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="releaseAttempt" />
                      <input type="hidden" name="attemptId" value={attempt.id} />
                      <Button submit tone="critical" loading={busy}>
                        {t("order.attempt.release")}
                      </Button>
                    </Form>
                  ) : null}
                </InlineStack>
                {attempt.status === "NEEDS_REVIEW" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="attachLabel" />
                    <input type="hidden" name="attemptId" value={attempt.id} />
                    <BlockStack gap="200">
                      <EditableField name="serviceLabelId" label={t("order.attach.label")} initial="" />
                      <Text as="p" tone="subdued">
                        {t("order.attach.help")}
                      </Text>
                      <InlineStack>
                        <Button submit loading={busy}>
                          {t("order.attach.action")}
                        </Button>
                      </InlineStack>
                    </BlockStack>
                  </Form>
                ) : null}
              </BlockStack>
            </Banner>
          </Layout.Section>
        ))}

        {request ? (
          <Layout.Section>
            <Form method="post" key={`${data.selectedBox}|${data.labels.length}`}>
              <input type="hidden" name="intent" value={hasLabel ? "createAdditional" : "create"} />
              {hasLabel ? <input type="hidden" name="labelIndex" value={data.nextLabelIndex} /> : null}
              <input type="hidden" name="box" value={data.selectedBox} />
              <input type="hidden" name="carrier_name" value={carrierName ?? ""} />
              <input type="hidden" name="carrier_service_name" value={serviceName ?? ""} />
              <BlockStack gap="400">
                <Card>
                  <BlockStack gap="200">
                    <InlineStack align="space-between">
                      <Text as="h2" variant="headingMd">
                        {t("order.sender")}
                      </Text>
                      <Link url="/app/settings">{t("order.sender.edit")}</Link>
                    </InlineStack>
                    <Text as="p">
                      {[
                        request.sender.company_name,
                        `${request.sender.firstname} ${request.sender.lastname}`.trim(),
                        request.sender.address_line1,
                        `${request.sender.zip} ${request.sender.city}`,
                        request.sender.country,
                        request.sender.phone1,
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </Text>
                  </BlockStack>
                </Card>
                <SectionCard title={t("order.recipient")}>
                  <RecipientFields recipient={request.recipient} />
                </SectionCard>
                <SectionCard title={t("order.parcel")}>
                  <FormLayout>
                    <Select
                      label={t("order.field.box")}
                      options={data.boxes.map((box) => ({ label: box, value: box }))}
                      value={data.selectedBox}
                      onChange={(box) => {
                        const next = new URLSearchParams(searchParams);
                        next.set("box", box);
                        setSearchParams(next);
                      }}
                    />
                    <FormLayout.Group>
                      <EditableField
                        name="weight"
                        label={t("order.field.weight")}
                        initial={request.weight}
                        type="number"
                      />
                      <EditableField
                        name="length"
                        label={t("order.field.length")}
                        initial={request.length ?? ""}
                        type="number"
                      />
                      <EditableField
                        name="width"
                        label={t("order.field.width")}
                        initial={request.width ?? ""}
                        type="number"
                      />
                      <EditableField
                        name="height"
                        label={t("order.field.height")}
                        initial={request.height ?? ""}
                        type="number"
                      />
                    </FormLayout.Group>
                    <EditableField
                      name="description"
                      label={t("order.field.description")}
                      initial={request.description ?? ""}
                    />
                  </FormLayout>
                </SectionCard>
                <SectionCard title={t("order.carrier")}>
                  <Select
                    label={t("order.field.service")}
                    options={serviceOptions}
                    value={carrierKey}
                    onChange={setCarrierKey}
                  />
                </SectionCard>
                <SectionCard title={t("order.customs")}>
                  {request.cn23_data ? (
                    <BlockStack gap="200">
                      <InlineGrid columns={2} gap="200">
                        <Select
                          name="cn23.category"
                          label={t("settings.shipping.category")}
                          value={category}
                          onChange={setCategory}
                          options={(["1", "2", "3", "4", "5", "6"] as const).map((value) => ({
                            label: t(`settings.shipping.category.${value}`),
                            value,
                          }))}
                        />
                        <EditableField
                          name="cn23.shipping_price"
                          label={t("order.cn23.shippingPrice", { currency: data.shippingPaid.currencyCode })}
                          initial={request.cn23_data.shipping_price}
                        />
                      </InlineGrid>
                      {request.cn23_data.products.map((product, index) => (
                        <InlineGrid key={index} columns={6} gap="200">
                          <EditableField
                            name={`cn23.products.${index}.description`}
                            label={`${t("order.cn23.item")} (×${product.quantity})`}
                            initial={product.description}
                          />
                          <EditableField
                            name={`cn23.products.${index}.unit_price`}
                            label={`${t("order.cn23.unitPrice")} ${product.currency_code}`}
                            initial={product.unit_price}
                          />
                          <EditableField
                            name={`cn23.products.${index}.weight`}
                            label={t("order.cn23.weight")}
                            initial={product.weight}
                          />
                          <EditableField
                            name={`cn23.products.${index}.country_code`}
                            label={t("order.cn23.origin")}
                            initial={product.country_code}
                          />
                          <EditableField
                            name={`cn23.products.${index}.hs_code`}
                            label={t("order.cn23.hsCode")}
                            initial={product.hs_code ?? ""}
                          />
                        </InlineGrid>
                      ))}
                    </BlockStack>
                  ) : (
                    <Text as="p">{t("order.customs.none")}</Text>
                  )}
                </SectionCard>
                <Box paddingBlockEnd="800">
                  <BlockStack gap="200">
                    {hasLabel ? <Banner tone="warning">{t("order.additional.confirm")}</Banner> : null}
                    <Text as="p" tone={data.environment === "production" ? "critical" : "subdued"}>
                      {t(data.environment === "production" ? "order.charged" : "order.free")}
                    </Text>
                    <InlineStack>
                      <Button
                        submit
                        variant="primary"
                        tone={hasLabel ? "critical" : undefined}
                        disabled={
                          busy || inFlight || blocking.some((problem) => !problem.editable) || data.serviceUnavailable
                        }
                        loading={busy}
                      >
                        {t(hasLabel ? "order.createAdditional" : "order.create")}
                      </Button>
                    </InlineStack>
                  </BlockStack>
                </Box>
              </BlockStack>
            </Form>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
