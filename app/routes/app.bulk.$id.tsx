/**
 * A bulk job's progress: a live bar and counts, and each order's status with its reason in the merchant's language.
 * It reads the job again every ~1.5 s while it runs (useRevalidator; no reload) and stops once nothing can change by
 * itself. "Retry failed" and "Cancel" post here; another shop's job id is a 404.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator, useSubmit } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  IndexTable,
  InlineGrid,
  InlineStack,
  Link,
  Page,
  ProgressBar,
  Text,
  type BadgeProps,
} from "@shopify/polaris";
import { memo, useContext, useEffect, useState } from "react";
import { requireAdmin } from "../auth.server";
import { cancelBulkJob, getBulkJob, retryFailedItems } from "../bulk/bulk-jobs.server";
import { BulkSelectionError } from "../bulk/preflight.server";
import type { BulkItemStatus, BulkJobStatus } from "../bulk/types";
import { bulkJobLabelIds, labelFiles, printableLabels, progressPage, type ProgressPage } from "../bulk/ui-pages.server";
import { ChargeConfirmation } from "../components/bulk/ChargeConfirmation";
import { plural } from "../components/bulk/plural";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { dateContextFor } from "../i18n/dates.server";
import { localeFromRequest } from "../i18n/locale";
import { LocaleContext, useT } from "../i18n/translate";
import { translator } from "../i18n/translate.server";
import { answeringShopifyBusy } from "../shopify/busy.server";

function notFound(): Response {
  return new Response("Bulk job not found", { status: 404 });
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { admin, shop, demo } = await requireAdmin(request);
  const job = await getBulkJob(db, shop, params.id ?? "");
  if (!job) throw notFound();
  const labelIds = job.items.flatMap((item) => (item.labelId ? [item.labelId] : []));
  // The print holds every label of the job: an order shipping from two locations has two (decision 0115).
  const jobLabelIds = (await bulkJobLabelIds(db, shop, job.id)) ?? labelIds;
  const [dates, files, printable] = await Promise.all([
    answeringShopifyBusy(dateContextFor(request, admin, shop)),
    labelFiles(db, shop, labelIds),
    printableLabels(db, shop, jobLabelIds),
  ]);
  return { job: progressPage(job, localeFromRequest(request), dates, files), print: printable, embedded: !demo };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const locale = localeFromRequest(request);
  const t = translator(locale);
  const form = await readForm(request);
  const id = params.id ?? "";
  if (form.get("intent") === "cancel") {
    const result = await cancelBulkJob(db, shop, id);
    if (!result) throw notFound();
    const message = result.cancelled === 0 ? t("bulk.cancelled.none") : plural(t, locale, "bulk.cancelled", result.cancelled);
    return { tone: "info" as const, message };
  }
  const confirmation = form.get("confirmChargedLabels");
  try {
    const result = await retryFailedItems(db, shop, id, { confirmChargedLabels: confirmation === null ? undefined : Number(confirmation) });
    if (!result) throw notFound();
    const message = result.retried === 0 ? t("bulk.retried.none") : plural(t, locale, "bulk.retried", result.retried);
    return { tone: "success" as const, message };
  } catch (error) {
    if (error instanceof BulkSelectionError) return { tone: "critical" as const, message: error.messages[locale] };
    if (error instanceof Error && /job queue is not running/.test(error.message)) return { tone: "critical" as const, message: t("bulkApi.queueDown") };
    throw error;
  }
}

const ITEM_TONES: Record<BulkItemStatus, BadgeProps["tone"]> = {
  QUEUED: undefined,
  RUNNING: "info",
  LABELLED: "success",
  BLOCKED: "warning",
  REFUSED: "critical",
  PENDING: "attention",
  CANCELLED: undefined,
};
const JOB_TONES: Record<BulkJobStatus, BadgeProps["tone"]> = { RUNNING: "info", COMPLETED: "success", CANCELLED: undefined };

type Item = ProgressPage["items"][number];

/** One order of the job. Memoized: a poll that changes one item re-renders that row only (items keep equal props). */
const ItemRow = memo(
  function ItemRow({ item, position }: { item: Item; position: number }) {
    const t = useT();
    return (
      <IndexTable.Row id={item.orderId} position={position}>
        <IndexTable.Cell>
          <Link url={`/app/orders/${item.orderId.split("/").pop()}`} removeUnderline>
            <Text as="span" fontWeight="semibold">
              {item.orderName}
            </Text>
          </Link>
        </IndexTable.Cell>
        <IndexTable.Cell>
          <Badge tone={ITEM_TONES[item.status]}>{t(`bulk.item.status.${item.status}`)}</Badge>
        </IndexTable.Cell>
        <IndexTable.Cell>
          <div style={{ whiteSpace: "normal", maxWidth: "36rem" }}>
            <Text as="span" tone={item.reason && item.status !== "LABELLED" ? "critical" : "subdued"}>
              {item.reason ?? (item.alreadyLabelled ? t("bulk.item.alreadyLabelled") : "")}
            </Text>
          </div>
        </IndexTable.Cell>
        <IndexTable.Cell>{item.trackingNumber ?? ""}</IndexTable.Cell>
        <IndexTable.Cell>
          {item.labelUrl ? (
            <Link url={item.labelUrl} target="_blank">
              {t("bulk.item.openLabel")}
            </Link>
          ) : null}
        </IndexTable.Cell>
      </IndexTable.Row>
    );
  },
  (before, after) => before.position === after.position && JSON.stringify(before.item) === JSON.stringify(after.item),
);

function Count({ label, value, tone }: { label: string; value: number; tone?: "success" | "critical" | "caution" | "subdued" }) {
  return (
    <BlockStack gap="100">
      <Text as="span" tone="subdued">
        {label}
      </Text>
      <Text as="span" variant="headingLg" tone={value > 0 ? tone : undefined}>
        {value}
      </Text>
    </BlockStack>
  );
}

export default function BulkJobProgress() {
  const { job, print, embedded } = useLoaderData<typeof loader>();
  const outcome = useActionData<typeof action>();
  const t = useT();
  const locale = useContext(LocaleContext);
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const posting = navigation.state === "submitting";
  const intent = navigation.formData?.get("intent");

  // Live progress: read the job again while it runs; nothing once it is finished.
  useEffect(() => {
    if (job.pollMs === null) return;
    const timer = setTimeout(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, job.pollMs);
    return () => clearTimeout(timer);
  }, [job, revalidator]);

  const { counts } = job;
  const labelled = job.items.filter((item) => item.labelUrl).length;
  const production = job.environment === "production";
  const retry = (confirmChargedLabels?: number) => {
    setConfirming(false);
    submit(confirmChargedLabels === undefined ? { intent: "retry" } : { intent: "retry", confirmChargedLabels: String(confirmChargedLabels) }, { method: "post" });
  };

  return (
    <Page
      title={t("bulk.job.title", { date: job.createdAt })}
      titleMetadata={<Badge tone={JOB_TONES[job.status]}>{t(`bulk.job.status.${job.status}`)}</Badge>}
      backAction={{ content: t("bulk.list.title"), url: "/app/bulk" }}
    >
      <BlockStack gap="400">
        {outcome ? (
          <Banner tone={outcome.tone}>
            <p>{outcome.message}</p>
          </Banner>
        ) : null}
        <Card>
          <BlockStack gap="300">
            <InlineStack align="space-between" blockAlign="center">
              <Text as="h2" variant="headingMd">
                {t("bulk.job.progress", { done: counts.total - counts.remaining, total: counts.total })}
              </Text>
              <Badge tone={production ? "critical" : "info"}>{t(production ? "env.production" : "env.staging")}</Badge>
            </InlineStack>
            <ProgressBar progress={job.percent} tone={job.pollMs !== null ? "highlight" : "success"} animated={job.pollMs !== null} />
            <InlineGrid columns={{ xs: 1, sm: 3, md: 6 }} gap="300">
              <Count label={t("bulk.count.labelled")} value={counts.labelled} tone="success" />
              <Count label={t("bulk.count.refused")} value={counts.refused} tone="critical" />
              <Count label={t("bulk.count.blocked")} value={counts.blocked} tone="caution" />
              <Count label={t("bulk.count.pending")} value={counts.pending} tone="caution" />
              <Count label={t("bulk.count.remaining")} value={counts.remaining} />
              <Count label={t("bulk.count.cancelled")} value={counts.cancelled} tone="subdued" />
            </InlineGrid>
            <Text as="p" tone="subdued">
              {job.finishedAt ? t("bulk.job.finishedAt", { date: job.finishedAt }) : t("bulk.job.live")}
            </Text>
            <InlineStack gap="200">
              {job.retryable > 0 ? (
                <Form
                  method="post"
                  onSubmit={(event) => {
                    event.preventDefault();
                    if (production) setConfirming(true);
                    else retry();
                  }}
                >
                  <Button submit variant="primary" loading={posting && intent === "retry"} disabled={posting}>
                    {t("bulk.retry", { count: job.retryable })}
                  </Button>
                </Form>
              ) : null}
              {job.cancellable ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="cancel" />
                  <Button submit tone="critical" loading={posting && intent === "cancel"} disabled={posting}>
                    {t("bulk.cancel")}
                  </Button>
                </Form>
              ) : null}
            </InlineStack>
            <ChargeConfirmation open={confirming} embedded={embedded} count={job.retryable} kind="retry" onConfirm={() => retry(job.retryable)} onCancel={() => setConfirming(false)} />
          </BlockStack>
        </Card>
        {job.retryable > 0 && job.pollMs === null ? (
          <Banner tone="warning" title={t("bulk.failed.heading")}>
            <p>{t("bulk.failed.body")}</p>
          </Banner>
        ) : null}
        {labelled > 0 ? (
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {t("bulk.print.heading")}
              </Text>
              {/* Labels, not orders: an order shipping from two locations has two (the button counts the same). */}
              <Text as="p">{plural(t, locale, "bulk.print.body", print.all.length)}</Text>
              {/* One file per label format (app/print): the whole job, or only the labels not printed yet. */}
              <InlineStack gap="200">
                <Form method="post" action="/app/print">
                  {print.all.map((id) => (
                    <input key={id} type="hidden" name="labelIds" value={id} />
                  ))}
                  <Button submit variant="primary" disabled={print.all.length === 0}>
                    {t("bulk.print.all", { count: print.all.length })}
                  </Button>
                </Form>
                {print.unprinted.length > 0 && print.unprinted.length < print.all.length ? (
                  <Form method="post" action="/app/print">
                    {print.unprinted.map((id) => (
                      <input key={id} type="hidden" name="labelIds" value={id} />
                    ))}
                    <Button submit>{t("bulk.print.unprinted", { count: print.unprinted.length })}</Button>
                  </Form>
                ) : null}
              </InlineStack>
            </BlockStack>
          </Card>
        ) : null}
        <Card padding="0">
          <IndexTable
            selectable={false}
            resourceName={{ singular: t("orders.resource.singular"), plural: t("orders.resource.plural") }}
            itemCount={job.items.length}
            headings={[
              { title: t("bulk.column.order") },
              { title: t("bulk.column.status") },
              { title: t("bulk.column.reason") },
              { title: t("bulk.column.tracking") },
              { title: t("bulk.column.label") },
            ]}
          >
            {job.items.map((item, index) => (
              <ItemRow key={item.orderId} item={item} position={index} />
            ))}
          </IndexTable>
        </Card>
        <Box paddingBlockEnd="400" />
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}
