/**
 * The preflight of a bulk job: Orders to ship posts its selection here (ids, or "all matching" its search and
 * filters); every order is checked for free ("N ready, M blocked", blocked ones grouped by cause), then "Start" creates
 * the job (a production job after the charged labels are confirmed) and opens its progress page.
 */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, EmptyState, InlineStack, Link, List, Page, Text } from "@shopify/polaris";
import { useContext, useState } from "react";
import { requireAdmin } from "../auth.server";
import { createBulkJob } from "../bulk/bulk-jobs.server";
import { BulkSelectionError, preflightBulkJob } from "../bulk/preflight.server";
import { parseIds, parseSelection, preflightPage, resolveSelection } from "../bulk/ui-pages.server";
import { ChargeConfirmation } from "../components/bulk/ChargeConfirmation";
import { plural } from "../components/bulk/plural";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { localeFromRequest, type Locale } from "../i18n/locale";
import { LocaleContext, useT } from "../i18n/translate";
import { translator } from "../i18n/translate.server";
import { labelContextFromAdmin } from "../labels/context.server";
import { reasonText } from "../labels/reasons";
import { getEnvironment } from "../settings/environment.server";
import { isShopifyBusy } from "../shopify/admin-client";
import { retryAfterSeconds } from "../shopify/busy.server";

function orderPath(id: string): string {
  return `/app/orders/${id.split("/").pop()}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, demo } = await requireAdmin(request);
  const { environment } = await getEnvironment(db, shop);
  return { environment, embedded: !demo };
}

/** A refusal the merchant can act on, in their language; anything else is the error page's. */
function refusal(error: unknown, locale: Locale): string {
  if (error instanceof BulkSelectionError) return error.messages[locale];
  if (isShopifyBusy(error))
    return reasonText({ code: "shopify_busy", params: { seconds: String(retryAfterSeconds(error)) } }, locale);
  if (error instanceof Error && /job queue is not running/.test(error.message))
    return translator(locale)("bulkApi.queueDown");
  throw error;
}

export async function action({ request }: ActionFunctionArgs) {
  const { admin, shop, staffUserId } = await requireAdmin(request);
  const locale = localeFromRequest(request);
  const form = await readForm(request);
  const context = await labelContextFromAdmin(shop, admin);
  let ids: string[] = [];
  let matching = false;
  let error: string | null = null;
  if (form.get("intent") === "start") {
    ids = parseIds(form.get("orderIds"));
    const confirmed = Number(form.get("confirmChargedLabels") ?? "");
    try {
      const created = await createBulkJob(context, {
        orderIds: ids,
        confirmChargedLabels:
          Number.isInteger(confirmed) && confirmed >= 0 && form.get("confirmChargedLabels") !== null
            ? confirmed
            : undefined,
        staffUserId: staffUserId ?? null,
      });
      return redirect(created.url);
    } catch (thrown) {
      // Not started: the preflight is shown again (it may have changed), with why.
      error = refusal(thrown, locale);
    }
  } else {
    try {
      ({ ids, matching } = await resolveSelection({ db, admin }, shop, parseSelection(form)));
    } catch (thrown) {
      return { error: refusal(thrown, locale), preflight: null, selected: 0, matching: false };
    }
  }
  try {
    const preflight = await preflightBulkJob(context, ids);
    return { error, preflight: preflightPage(preflight, locale), selected: ids.length, matching };
  } catch (thrown) {
    return { error: refusal(thrown, locale), preflight: null, selected: ids.length, matching };
  }
}

export default function BulkPreflight() {
  const { embedded } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const t = useT();
  const locale = useContext(LocaleContext);
  const navigation = useNavigation();
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const preflight = answer?.preflight ?? null;
  const busy = navigation.state !== "idle";

  const start = (confirmChargedLabels?: number) => {
    if (!preflight) return;
    setConfirming(false);
    const fields: Record<string, string> = {
      intent: "start",
      orderIds: preflight.jobOrderIds.map((id) => id.split("/").pop()).join(","),
    };
    if (confirmChargedLabels !== undefined) fields.confirmChargedLabels = String(confirmChargedLabels);
    submit(fields, { method: "post" });
  };

  return (
    <Page title={t("bulk.new.title")} backAction={{ content: t("bulk.new.back"), url: "/app" }}>
      <BlockStack gap="400">
        {answer?.error ? (
          <Banner tone="critical" title={t("bulk.new.notStarted")}>
            <p>{answer.error}</p>
          </Banner>
        ) : null}
        {!answer ? (
          <Card>
            <EmptyState
              heading={t("bulk.new.empty.heading")}
              image="/empty-orders.svg"
              action={{ content: t("bulk.new.back"), url: "/app" }}
            >
              <p>{t("bulk.new.empty.body")}</p>
            </EmptyState>
          </Card>
        ) : null}
        {preflight ? (
          <>
            <Card>
              <BlockStack gap="300">
                <Text as="p" tone="subdued">
                  {plural(
                    t,
                    locale,
                    answer?.matching ? "bulk.new.matching" : "bulk.new.selected",
                    answer?.selected ?? 0,
                  )}
                </Text>
                <Text as="h2" variant="headingLg">
                  {t("bulk.new.summary", { ready: preflight.ready.length, blocked: preflight.blocked.length })}
                </Text>
                <Text as="p">
                  {preflight.environment === "production"
                    ? plural(t, locale, "bulk.confirm.start", preflight.chargedLabels)
                    : t("bulk.new.staging")}
                </Text>
                <Text as="p" tone="subdued">
                  {t("bulk.new.free")}
                </Text>
                {preflight.ready.length === 0 ? (
                  <Banner tone="warning">
                    <p>{t("bulk.new.nothingReady")}</p>
                  </Banner>
                ) : (
                  <Form
                    method="post"
                    onSubmit={(event) => {
                      event.preventDefault();
                      if (preflight.environment === "production" && preflight.chargedLabels > 0) setConfirming(true);
                      else start();
                    }}
                  >
                    <InlineStack gap="200">
                      <Button submit variant="primary" loading={busy} disabled={busy}>
                        {plural(t, locale, "bulk.new.start", preflight.ready.length)}
                      </Button>
                      <Button url="/app">{t("bulk.new.back")}</Button>
                    </InlineStack>
                  </Form>
                )}
                <ChargeConfirmation
                  open={confirming}
                  embedded={embedded}
                  count={preflight.chargedLabels}
                  kind="start"
                  onConfirm={() => start(preflight.chargedLabels)}
                  onCancel={() => setConfirming(false)}
                />
              </BlockStack>
            </Card>
            {preflight.groups.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t("bulk.new.blocked.heading")}
                  </Text>
                  <OrderGroups groups={preflight.groups} />
                </BlockStack>
              </Card>
            ) : null}
            {preflight.serviceChoices.length > 0 ? (
              <Card>
                <BlockStack gap="300">
                  <Text as="h2" variant="headingMd">
                    {t("rules.preflight.heading")}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("rules.preflight.help")}
                  </Text>
                  <OrderGroups groups={preflight.serviceChoices} />
                </BlockStack>
              </Card>
            ) : null}
            {preflight.alreadyLabelled.length > 0 ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("bulk.new.labelled.heading")}
                  </Text>
                  <InlineStack gap="200">
                    {preflight.alreadyLabelled.map((order) => (
                      <Link key={order.orderId} url={orderPath(order.orderId)}>
                        {order.orderName}
                      </Link>
                    ))}
                  </InlineStack>
                </BlockStack>
              </Card>
            ) : null}
            {preflight.unknown.length > 0 ? (
              <Card>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {t("bulk.new.unknown.heading")}
                  </Text>
                  <Text as="p">{preflight.unknown.join(", ")}</Text>
                </BlockStack>
              </Card>
            ) : null}
          </>
        ) : null}
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}

/** Orders grouped under a sentence (a cause, or the rule that chose their service), each order a link to its page. */
function OrderGroups({
  groups,
}: {
  groups: readonly { text: string; orders: readonly { orderId: string; orderName: string }[] }[];
}) {
  return (
    <List type="bullet">
      {groups.map((group) => (
        <List.Item key={group.text}>
          <BlockStack gap="100">
            <Text as="span">{group.text}</Text>
            <InlineStack gap="200">
              {group.orders.map((order) => (
                <Link key={order.orderId} url={orderPath(order.orderId)}>
                  {order.orderName}
                </Link>
              ))}
            </InlineStack>
          </BlockStack>
        </List.Item>
      ))}
    </List>
  );
}
