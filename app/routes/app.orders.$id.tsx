import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
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
import { useContext, useEffect, useState, type ReactNode } from "react";
import { CustomsSection } from "../components/order/CustomsSection";
import { EditableField as OrderField } from "../components/order/EditableField";
import { fieldErrors } from "../components/order/problem-text";
import { ProblemsBanner } from "../components/order/ProblemsBanner";
import { PurchaseButton } from "../components/order/PurchaseButton";
import { VoidLabelButton } from "../components/order/VoidLabelButton";
import { LocationsCard } from "../components/order/LocationsCard";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { localeFromRequest } from "../i18n/locale";
import type { MessageKey } from "../i18n/messages";
import { LocaleContext, useT } from "../i18n/translate";
import { labelServiceClientFor, LabelServiceUnavailableError } from "../labels/gateway.server";
import { carrierServicesCache } from "../labels/carrier-services-cache.server";
import { LoadingLine, useRefreshWhenReady } from "../components/loading";
import { handleOrderLabelAction } from "../labels/order-label-actions.server";
import { shopifyTrackingInfo } from "../labels/carriers";
import { readNote } from "../labels/notes";
import { uniqueProblems } from "../labels/order-edit-fields";
import {
  deriveOrderLabelView,
  isFulfilled,
  isFulfillmentFailed,
  isLiveLabel,
  isPushing,
  isSkippedTest,
  isUnsettledAttempt,
  labelVoidState,
  needsReview,
  pageLabelFacts,
  type LabelVoidState,
} from "../labels/status";
import { isFulfillmentStuck } from "../labels/fulfill.server";
import { isEditableProblem, loadOrderLabel } from "../labels/order-label.server";
import { absenceProven, canRelease } from "../labels/settle.server";
import { formatDateTime } from "../i18n/dates";
import { dateContextFor } from "../i18n/dates.server";
import { loadShippingSettingsState } from "../settings/shipping-settings.server";
import { AppErrorPage } from "../components/AppErrorPage";
import { answeringShopifyBusy } from "../shopify/busy.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const url = new URL(request.url);
  let serviceUnavailable = false;
  // Set when the destination's services were not cached: the page does not wait for the label service (decision 0174).
  let servicesLoading: Promise<boolean> | null = null;
  const view = await answeringShopifyBusy(loadOrderLabel(db, admin, shop, params.id ?? "", {
    boxName: url.searchParams.get("box") ?? undefined,
    carrierName: url.searchParams.get("carrier") ?? undefined,
    serviceName: url.searchParams.get("service") ?? undefined,
    // The services sold to the order's destination country: the mapper checks the proposed one against them.
    lookupServices: async (country, environment) => {
      try {
        const cached = carrierServicesCache.peek(shop, environment, country);
        if (cached) return cached;
        // Building the client reads the database only: a missing account is still said at once.
        const client = await labelServiceClientFor(shop, environment);
        // The lookup fills the cache in the background; the page refreshes once it is there.
        servicesLoading = carrierServicesCache.get(shop, environment, country, () => client.carrierServices(country)).then(
          () => true,
          () => false,
        );
        return undefined;
      } catch (error) {
        serviceUnavailable = error instanceof LabelServiceUnavailableError;
        return undefined;
      }
    },
  }));
  if (!view) throw new Response("Order not found", { status: 404 });
  const { configured } = await loadShippingSettingsState(db, shop);
  const dates = await answeringShopifyBusy(dateContextFor(request, admin, shop));
  // The same derivation as the orders list (app/labels/status.ts), so the list and this page agree.
  const labelView = deriveOrderLabelView(
    pageLabelFacts({ ...view, problems: view.problems.map((problem) => ({ ...problem, editable: isEditableProblem(problem) })) }),
  );
  const lastAttempt = view.attempts.at(-1);
  const services = (view.offeredServices ?? []).map((service) => ({
    carrier: service.carrier ?? "",
    name: service.name,
    label: service.label ?? service.name,
  }));
  const carrierName = (carrier: string) => shopifyTrackingInfo(carrier, "", "").company;
  /** The service's own name from the lookup for this destination, else the carrier's name and the code. */
  const serviceLabel = (carrier: string, service: string) =>
    services.find((entry) => (entry.carrier || carrier) === carrier && entry.name === service)?.label ?? `${carrierName(carrier)} ${service}`;
  return {
    orderName: view.order.name,
    orderId: view.order.id,
    environment: view.environment,
    request: view.preview ?? null,
    problems: view.problems.map((problem) => ({ ...problem, editable: isEditableProblem(problem) })),
    customsRequired: view.customsRequired,
    serviceChoice: view.serviceChoice ?? null,
    customsLines: view.customsLines,
    labelFormat: view.preview?.sender.labelType ?? null,
    proposedService: view.preview ? serviceLabel(view.preview.carrier_name, view.preview.carrier_service_name) : null,
    senderConfigured: configured,
    boxes: view.boxes,
    selectedBox: view.selectedBox ?? "",
    shippingPaid: view.order.totalShippingPriceSet.presentmentMoney,
    labels: view.labels.map((label) => ({
      id: label.id,
      trackingNumber: label.trackingNumber,
      trackingUrl: label.trackingUrl,
      labelUrl: label.labelUrl,
      carrier: serviceLabel(label.carrierName, label.carrierServiceName),
      environment: label.environment,
      fulfillmentStatus: label.fulfillmentStatus,
      fulfillmentError: readNote(label.fulfillmentError),
      fulfillmentStuck: isLiveLabel(label) && isFulfillmentStuck(label, new Date()),
      createdAt: formatDateTime(label.createdAt, dates),
      // What a refund request to the label service quotes (decision 0112).
      serviceLabelId: label.serviceLabelId,
      customReference: label.customReference,
      voidState: labelVoidState(label.voidState),
      voidedAt: label.voidedAt ? formatDateTime(label.voidedAt, dates) : null,
      voidError: readNote(label.voidError),
    })),
    labelView,
    refusal: labelView.status === "rejected" && lastAttempt ? readNote(lastAttempt.errorJson) : null,
    attempts: view.attempts
      .filter(
        (attempt) => isUnsettledAttempt(attempt.status),
      )
      .map((attempt) => ({
        id: attempt.id,
        status: attempt.status,
        customReference: attempt.customReference,
        note: readNote(attempt.errorJson),
        releasable: canRelease(attempt),
        absent: absenceProven(attempt),
      })),
    services,
    serviceUnavailable,
    nextLabelIndex: view.nextLabelIndex,
    // Sender per location (decision 0115): an order shipping from several locations, each with its label.
    locations:
      view.locations?.map((location) => ({
        ...location,
        sender: [location.sender.company, location.sender.address1, `${location.sender.zip} ${location.sender.city}`, location.sender.countryCode].filter(Boolean).join(" · "),
        tracking: view.labels.filter((label) => location.labelIds.includes(label.id)).map((label) => label.trackingNumber),
      })) ?? null,
    previewLocation: view.previewLocation,
    // Assigned in the lookup above (a callback, which TypeScript's narrowing does not follow).
    servicesLoading: servicesLoading as Promise<boolean> | null,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  return handleOrderLabelAction(
    { db, admin, shop, orderId: params.id ?? "", locale: localeFromRequest(request) },
    await readForm(request),
  );
}

function RecipientFields({
  recipient,
  value,
  onChange,
  errors,
}: {
  recipient: NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["request"]>["recipient"];
  value: (name: string, initial: string) => string;
  onChange: (name: string, value: string) => void;
  errors: Record<string, string>;
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
      {fields.map(([name, label, initial]) => (
        <OrderField key={name} name={name} label={t(label)} value={value(name, initial ?? "")} onChange={onChange} error={errors[name]} />
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

/**
 * While a purchase or a Shopify step is pending, the page reloads its data by itself (every 5 s for the first minute,
 * then every 30 s), so the outcome of the background checks shows without clicking. Typed edits are kept.
 */
function usePendingRefresh(pending: boolean, busy: boolean) {
  const revalidator = useRevalidator();
  const [refreshes, setRefreshes] = useState(0);
  useEffect(() => {
    if (!pending) {
      setRefreshes(0);
      return;
    }
    if (busy || revalidator.state !== "idle") return;
    const timer = setTimeout(() => {
      setRefreshes((count) => count + 1);
      revalidator.revalidate();
    }, refreshes < 12 ? 5_000 : 30_000);
    return () => clearTimeout(timer);
  }, [pending, busy, revalidator, refreshes]);
}

/** The page's form that voids one label (confirmed in VoidLabelButton's dialog first). */
function VoidLabelForm({ labelId, children }: { labelId: string; children: ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="voidLabel" />
      <input type="hidden" name="labelId" value={labelId} />
      {children}
    </Form>
  );
}

/** A label's badge: its void state once asked, else its Shopify step. */
function LabelBadge({ fulfillmentStatus, voidState }: { fulfillmentStatus: string; voidState: LabelVoidState | null }) {
  const t = useT();
  if (voidState) return <Badge tone={voidState === "VOID" ? undefined : "warning"}>{t(voidState === "VOID" ? "void.badge" : "void.badge.voiding")}</Badge>;
  if (isFulfilled(fulfillmentStatus)) return <Badge tone="success">{t("order.fulfillment.created")}</Badge>;
  if (isFulfillmentFailed(fulfillmentStatus)) return <Badge tone="critical">{t("label.status.failed")}</Badge>;
  if (isSkippedTest(fulfillmentStatus)) return <Badge tone="attention">{t("real.fulfillment.skippedTest")}</Badge>;
  return <Badge tone="info">{t("order.fulfillment.pending")}</Badge>;
}

/**
 * A void (or half-voided) label: no file link, when it was voided, and the label id and reference to quote to the
 * label service for a refund (it has no cancel). A void that stopped offers Void label again to finish it.
 */
function VoidedLabelNotice({
  label,
  orderName,
  busy,
}: {
  label: { id: string; trackingNumber: string; serviceLabelId: string; customReference: string; voidState: LabelVoidState | null; voidedAt: string | null; voidError: { en: string; fr: string } | null };
  orderName: string;
  busy: boolean;
}) {
  const t = useT();
  const locale = useContext(LocaleContext);
  const done = label.voidState === "VOID";
  return (
    <Banner tone={done ? "info" : "warning"}>
      <BlockStack gap="200">
        <Text as="p">{done ? t("void.card.voided", { date: label.voidedAt ?? "" }) : t("void.card.voiding")}</Text>
        {label.voidError ? (
          <Text as="p" tone="subdued">
            {label.voidError[locale]}
          </Text>
        ) : null}
        <Text as="p" fontWeight="semibold">
          {t("void.card.refund", { labelId: label.serviceLabelId, reference: label.customReference })}
        </Text>
        {done ? null : (
          <InlineStack>
            <VoidLabelForm labelId={label.id}>
              <VoidLabelButton
                orderName={orderName}
                trackingNumber={label.trackingNumber}
                serviceLabelId={label.serviceLabelId}
                reference={label.customReference}
                disabled={busy}
                loading={busy}
              />
            </VoidLabelForm>
          </InlineStack>
        )}
      </BlockStack>
    </Banner>
  );
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
  const [carrierKey, setCarrierKey] = useState(
    request ? `${request.carrier_name}|${request.carrier_service_name}` : "",
  );
  // What the merchant typed, kept across a change of box (the loader runs again, the page stays mounted); cleared
  // once a label is bought so the next form starts from the order's data.
  const [edits, setEdits] = useState<Record<string, string>>({});
  const liveLabels = data.labels.filter(isLiveLabel);
  useEffect(() => setEdits({}), [data.labels.length]);
  const value = (name: string, initial: string) => edits[name] ?? initial;
  const edit = (name: string, next: string) => setEdits((current) => ({ ...current, [name]: next }));
  // A void label is history: the order is bought a first label again, not an additional one. An order shipping from several locations: the draft is the next location's parcel until each has its label.
  const draftLocation = data.locations?.find((location) => location.locationId === data.previewLocation && location.tracking.length === 0 && location.open);
  const hasLabel = liveLabels.length > 0 && !draftLocation;
  // Once labelled, the draft's problems are not "to fix before buying" any more; an additional label's own
  // problems come back from its action.
  const blocking = hasLabel ? [] : data.problems.filter((problem) => problem.severity === "blocking");
  const warnings = hasLabel ? [] : data.problems.filter((problem) => problem.severity === "warning");
  const actionProblems = (result && "problems" in result ? result.problems : undefined) ?? [];
  const problems = uniqueProblems([...actionProblems, ...blocking]);
  const errors = fieldErrors(problems, locale);
  const pushing = liveLabels.some((label) => isPushing(label.fulfillmentStatus));
  usePendingRefresh(data.attempts.some((attempt) => !needsReview(attempt.status)) || pushing, busy);
  useRefreshWhenReady(data.servicesLoading);
  const [carrierName, serviceName] = carrierKey.split("|");
  const serviceOptions = data.services.map((service) => ({
    label: service.label,
    value: `${service.carrier || request?.carrier_name}|${service.name}`,
  }));
  if (request && !serviceOptions.some((option) => option.value === carrierKey)) {
    // The proposed service is not among those sold to the destination: shown as such, never as a valid choice.
    const current = data.proposedService ?? `${request.carrier_name} · ${request.carrier_service_name}`;
    serviceOptions.unshift({ label: data.services.length > 0 ? t("order.service.notOffered", { service: current }) : current, value: carrierKey });
  }
  const text = (message: { en: string; fr: string }) => (locale === "fr" ? message.fr : message.en);

  return (
    <Page
      title={t("order.title", { order: data.orderName })}
      backAction={{ content: t("order.back"), url: "/app" }}
      titleMetadata={
        <InlineStack gap="200">
          <Badge tone={data.environment === "production" ? "critical" : "info"}>
            {t(data.environment === "production" ? "env.production" : "env.staging")}
          </Badge>
          <Badge tone={data.labelView.tone}>{t(`label.status.${data.labelView.status}`)}</Badge>
        </InlineStack>
      }
    >
      <Layout>
        {result && "notice" in result && result.notice ? (
          <Layout.Section>
            <Banner tone={result.tone}>
              <BlockStack gap="100">
                <Text as="p">{t(result.notice.key, result.notice.values)}</Text>
                {"detail" in result && result.detail ? (
                  <Text as="p" tone="subdued">
                    {t("order.rejected.detail", { detail: result.detail })}
                  </Text>
                ) : null}
              </BlockStack>
            </Banner>
          </Layout.Section>
        ) : null}
        {problems.length > 0 ? (
          <Layout.Section>
            <ProblemsBanner problems={problems} />
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
        {data.refusal ? (
          <Layout.Section>
            <Banner tone="warning" title={t("label.status.rejected")}>
              {data.refusal[locale]}
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

        {data.locations ? (
          <Layout.Section>
            <LocationsCard
              locations={data.locations}
              orderName={data.orderName}
              box={data.selectedBox}
              charged={data.environment === "production"}
              disabled={busy || data.serviceUnavailable}
              busy={busy}
            />
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
                  <LabelBadge fulfillmentStatus={label.fulfillmentStatus} voidState={label.voidState} />
                </InlineStack>
                <Text as="p" tone="subdued">
                  {label.createdAt}
                </Text>
                <Text as="p">
                  {t("order.label.tracking")}:{" "}
                  <Text as="span" fontWeight="bold">
                    {label.trackingNumber}
                  </Text>
                </Text>
                {label.voidState ? (
                  <VoidedLabelNotice label={label} orderName={data.orderName} busy={busy} />
                ) : (
                  <InlineStack gap="300" blockAlign="center">
                    <Button url={label.labelUrl} target="_blank">
                      {t("order.label.open")}
                    </Button>
                    <Button variant="primary" onClick={() => window.open(label.labelUrl, "_blank")}>
                      {t("order.label.print")}
                    </Button>
                    <Form method="post" action="/app/print">
                      <input type="hidden" name="labelIds" value={label.id} />
                      <Button submit>{t("print.button.order")}</Button>
                    </Form>
                    {label.trackingUrl ? (
                      <Link url={label.trackingUrl} target="_blank">
                        {t("order.label.trackingPage")}
                      </Link>
                    ) : null}
                    <VoidLabelForm labelId={label.id}>
                      <VoidLabelButton
                        orderName={data.orderName}
                        trackingNumber={label.trackingNumber}
                        serviceLabelId={label.serviceLabelId}
                        reference={label.customReference}
                        disabled={busy}
                        loading={busy}
                      />
                    </VoidLabelForm>
                  </InlineStack>
                )}
                {/* Test labels (decision 0170): say whether this one reached Shopify. */}
                {isSkippedTest(label.fulfillmentStatus) && !label.voidState ? <Banner tone="info">{t("real.fulfillment.skippedTestHelp")}</Banner> : null}
                {isFulfilled(label.fulfillmentStatus) && label.environment === "staging" && !label.voidState ? (
                  <Text as="p" tone="subdued">
                    {t("real.fulfillment.testFulfilled")}
                  </Text>
                ) : null}
                {!label.voidState && (isFulfillmentFailed(label.fulfillmentStatus) || label.fulfillmentStuck) ? (
                  <Banner tone={label.fulfillmentStuck ? "warning" : "critical"}>
                    <BlockStack gap="200">
                      <Text as="p">
                        {label.fulfillmentStuck
                          ? t("order.fulfillment.stuck")
                          : t("order.fulfillment.failed", { message: label.fulfillmentError?.[locale] ?? "" })}
                      </Text>
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
                  {t(
                    attempt.releasable && attempt.absent ? "order.attempt.absent" : needsReview(attempt.status) ? "order.attempt.review" : "order.attempt.pending",
                    { reference: attempt.customReference },
                  )}
                </Text>
                {attempt.releasable ? (
                  <Text as="p" fontWeight="semibold">
                    {t("order.attempt.releaseRisk", { reference: attempt.customReference })}
                  </Text>
                ) : null}
                {!needsReview(attempt.status) ? (
                  <Text as="p" tone="subdued">
                    {t("order.attempt.autoRefresh")}
                  </Text>
                ) : null}
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
                  {attempt.releasable ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="releaseAttempt" />
                      <input type="hidden" name="attemptId" value={attempt.id} />
                      <Button submit tone="critical" loading={busy}>
                        {t("order.attempt.release")}
                      </Button>
                    </Form>
                  ) : null}
                </InlineStack>
                {needsReview(attempt.status) || attempt.releasable ? (
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
            <Form method="post" key={`${data.labels.length}-${liveLabels.length}`}>
              <input type="hidden" name="intent" value={draftLocation ? "createForLocation" : hasLabel ? "createAdditional" : "create"} />
              {draftLocation ? <input type="hidden" name="location" value={draftLocation.locationId} /> : null}
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
                    {draftLocation ? <Text as="p" tone="subdued">{t("locations.order.draftFor", { location: draftLocation.locationName })}</Text> : null}
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
                    {data.labelFormat ? (
                      <Text as="p" tone="subdued">
                        {t("order.label.format", { format: t(`format.${data.labelFormat}`) })}
                      </Text>
                    ) : null}
                  </BlockStack>
                </Card>
                <SectionCard title={t("order.recipient")}>
                  <RecipientFields recipient={request.recipient} value={value} onChange={edit} errors={errors} />
                </SectionCard>
                <SectionCard title={t("order.parcel")}>
                  <FormLayout>
                    <Select
                      label={t("order.field.box")}
                      options={data.boxes.map((box) => ({ label: box, value: box }))}
                      value={data.selectedBox}
                      error={errors.box}
                      onChange={(box) => {
                        // The box's own dimensions replace the old box's; what the merchant typed stays (page state).
                        setEdits(({ length: _l, width: _w, height: _h, ...kept }) => kept);
                        const next = new URLSearchParams(searchParams);
                        next.set("box", box);
                        setSearchParams(next, { preventScrollReset: true });
                      }}
                    />
                    <FormLayout.Group>
                      {(
                        [
                          ["weight", "order.field.weight", request.weight],
                          ["length", "order.field.length", request.length ?? ""],
                          ["width", "order.field.width", request.width ?? ""],
                          ["height", "order.field.height", request.height ?? ""],
                        ] as const
                      ).map(([name, label, initial]) => (
                        <OrderField key={name} name={name} label={t(label)} value={value(name, initial)} onChange={edit} error={errors[name]} type="number" />
                      ))}
                    </FormLayout.Group>
                    <OrderField
                      name="description"
                      label={t("order.field.description")}
                      value={value("description", request.description ?? "")}
                      onChange={edit}
                      error={errors.description}
                    />
                  </FormLayout>
                </SectionCard>
                <SectionCard title={t("order.carrier")}>
                  <Select
                    label={t("order.field.service")}
                    options={serviceOptions}
                    value={carrierKey}
                    onChange={setCarrierKey}
                    error={errors.service}
                  />
                  {data.serviceChoice && data.serviceChoice.source !== "merchant" && carrierKey === `${request.carrier_name}|${request.carrier_service_name}` ? (
                    <Text as="p" tone="subdued">
                      {data.serviceChoice.source === "rule"
                        ? t("rules.order.byRule", { position: data.serviceChoice.position, name: data.serviceChoice.name })
                        : t("rules.order.byZone", { zone: t(`orders.zone.${data.serviceChoice.zone}`) })}
                    </Text>
                  ) : null}
                  {data.servicesLoading ? <LoadingLine text={t("real.services.loading")} /> : null}
                </SectionCard>
                <CustomsSection
                  cn23={request.cn23_data}
                  required={data.customsRequired}
                  shippingCurrency={data.shippingPaid.currencyCode}
                  value={value}
                  onChange={edit}
                  errors={errors}
                  edits={edits}
                  products={data.customsLines}
                />
                <Box paddingBlockEnd="800">
                  <BlockStack gap="200">
                    {hasLabel ? <Banner tone="warning">{t("order.additional.confirm")}</Banner> : null}
                    <Text as="p" tone={data.environment === "production" ? "critical" : "subdued"}>
                      {t(data.environment === "production" ? "order.charged" : "order.free")}
                    </Text>
                    <InlineStack>
                      <PurchaseButton
                        charged={data.environment === "production"}
                        orderName={data.orderName}
                        tone={hasLabel ? "critical" : undefined}
                        disabled={busy || !data.labelView.canPurchase || data.serviceUnavailable}
                        loading={busy}
                      >
                        {t(hasLabel ? "order.createAdditional" : "order.create")}
                      </PurchaseButton>
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

// Inside the layout: the app's frame and navigation stay, the error is said in the merchant's language.
export function ErrorBoundary() {
  return <AppErrorPage />;
}
