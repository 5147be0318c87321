import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, IndexTable, InlineStack, Link, Page, Select, Text, TextField, useIndexResourceState } from "@shopify/polaris";
import { useContext, useState } from "react";
import { z } from "zod";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { formFields, readForm } from "../http/form.server";
import type { MessageKey } from "../i18n/messages";
import { LocaleContext, useT } from "../i18n/translate";
import { labelServiceClientFor, LabelServiceUnavailableError } from "../labels/gateway.server";
import { compareWithService, labelHistory } from "../labels/history.server";
import { getEnvironment } from "../settings/environment.server";
import { HISTORY_STATUSES, type HistoryStatus } from "../labels/status";
import { AppErrorPage } from "../components/AppErrorPage";
import { formatDateTime, nextDay, startOfDayIn } from "../i18n/dates";
import { dateContextFor } from "../i18n/dates.server";
import { carrierDisplayName } from "../shipping/carriers";

const filtersSchema = z.object({
  status: z.enum(HISTORY_STATUSES).optional().catch(undefined),
  environment: z.enum(["staging", "production"]).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).default(1).catch(1),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const params = filtersSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const dates = await dateContextFor(request, admin, shop);
  // "From" and "to" are the shop's calendar days, the end day included.
  const history = await labelHistory(
    db,
    shop,
    {
      status: params.status,
      environment: params.environment,
      from: params.from ? startOfDayIn(params.from, dates.timeZone) : undefined,
      to: params.to ? startOfDayIn(nextDay(params.to), dates.timeZone) : undefined,
    },
    params.page,
  );
  // Formatted once, here, in the merchant's language and the shop's time zone.
  return { ...history, rows: history.rows.map((row) => ({ ...row, date: formatDateTime(row.createdAt, dates) })), filters: params };
}

/** "Compare with the label service": the remote list (bounded), each label flagged known or unknown here. */
/** Remote pages compared per click; "next pages" continues from where the last comparison stopped. */
const COMPARE_PAGES = 10;
const compareForm = z.object({ fromPage: z.coerce.number().int().min(1).max(100_000).catch(1) });

export async function action({ request }: ActionFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const { environment } = await getEnvironment(db, shop);
  const dates = await dateContextFor(request, admin, shop);
  const { fromPage } = compareForm.parse(formFields(await readForm(request)));
  try {
    const client = await labelServiceClientFor(shop, environment);
    const pages = (async function* () {
      for await (const page of client.labelPages({ startPage: fromPage, maxPages: COMPARE_PAGES })) yield page.labels;
    })();
    const compared = await compareWithService(db, shop, environment, pages, COMPARE_PAGES);
    return {
      ok: true as const,
      environment,
      ...compared,
      // What the merchant reads: the order, carrier, tracking number, our reference and a localized date; the
      // service's label id stays available as a detail to copy (Attach this label asks for it).
      labels: compared.labels.map((label) => ({
        id: label.id,
        knownLocally: label.knownLocally,
        orderName: label.orderName,
        carrier: label.carrier_name ? carrierDisplayName(label.carrier_name) : null,
        tracking: label.reference ?? null,
        reference: label.custom_reference ?? null,
        date: label.created_at ? formatDateTime(label.created_at, dates) : null,
      })),
      fromPage,
      toPage: fromPage + compared.pagesRead - 1,
      nextPage: compared.truncated ? fromPage + compared.pagesRead : null,
    };
  } catch (error) {
    if (error instanceof LabelServiceUnavailableError) return { ok: false as const, environment, reason: "noAccount" as const };
    return { ok: false as const, environment, reason: "failed" as const, message: error instanceof Error ? error.message : String(error) };
  }
}

const TONES: Record<HistoryStatus, "success" | "critical" | "warning" | "info" | undefined> = {
  created: "info",
  fulfilled: "success",
  fulfillment_failed: "critical",
  voided: undefined,
  needs_review: "warning",
  pending: "info",
  rejected: undefined,
};

/** The service's label id, small and selectable, with a button that copies it (Attach this label asks for it). */
function LabelIdDetail({ id }: { id: string }) {
  const t = useT();
  return (
    <InlineStack gap="200" blockAlign="center">
      <Text as="span" variant="bodySm" tone="subdued">
        {t("history.compare.labelId")}: <code>{id}</code>
      </Text>
      <Button variant="plain" size="micro" onClick={() => void navigator.clipboard?.writeText(id)}>
        {t("history.compare.copyId")}
      </Button>
    </InlineStack>
  );
}

function orderPath(orderId: string): string {
  return `/app/orders/${encodeURIComponent(orderId.split("/").pop() ?? orderId)}`;
}

export default function LabelHistory() {
  const { rows, hasNext, page, filters } = useLoaderData<typeof loader>();
  const comparison = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const locale = useContext(LocaleContext);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const [status, setStatus] = useState(filters.status ?? "");
  const [environment, setEnvironment] = useState(filters.environment ?? "");
  const [from, setFrom] = useState(filters.from ?? "");
  const [to, setTo] = useState(filters.to ?? "");
  // Print selected: only rows that are labels (an open attempt has no file) can be chosen.
  const printable = rows.filter((row) => row.labelUrl);
  const selection = useIndexResourceState(printable);
  const submit = useSubmit();
  const printSelected = () => {
    const form = new FormData();
    for (const id of selection.selectedResources) form.append("labelIds", id);
    submit(form, { method: "post", action: "/app/print" });
  };

  const pageLink = (target: number) => {
    const next = new URLSearchParams(searchParams);
    next.set("page", String(target));
    return `?${next.toString()}`;
  };

  return (
    <Page title={t("history.title")}>
      <BlockStack gap="400">
        <Card>
          <Form method="get">
            <InlineStack gap="300" blockAlign="end">
              <Select
                label={t("history.filter.status")}
                name="status"
                value={status}
                onChange={setStatus}
                options={[
                  { label: t("history.filter.any"), value: "" },
                  ...HISTORY_STATUSES.map((value) => ({ label: t(`history.status.${value}` as MessageKey), value })),
                ]}
              />
              <Select
                label={t("history.filter.environment")}
                name="environment"
                value={environment}
                onChange={setEnvironment}
                options={[
                  { label: t("history.filter.any"), value: "" },
                  { label: t("env.short.staging"), value: "staging" },
                  { label: t("env.short.production"), value: "production" },
                ]}
              />
              <TextField label={t("history.filter.from")} type="date" name="from" value={from} onChange={setFrom} autoComplete="off" />
              <TextField label={t("history.filter.to")} type="date" name="to" value={to} onChange={setTo} autoComplete="off" />
              <Button submit>{t("history.filter.apply")}</Button>
            </InlineStack>
          </Form>
        </Card>
        <Card padding="0">
          {rows.length === 0 ? (
            <Box padding="400">
              <Text as="p">{t("history.empty")}</Text>
            </Box>
          ) : (
            <IndexTable
              itemCount={rows.length}
              selectedItemsCount={selection.allResourcesSelected ? "All" : selection.selectedResources.length}
              onSelectionChange={selection.handleSelectionChange}
              promotedBulkActions={[{ content: t("print.button.selected", { count: selection.selectedResources.length }), onAction: printSelected }]}
              headings={[
                { title: t("history.column.order") },
                { title: t("history.column.date") },
                { title: t("history.column.status") },
                { title: t("history.column.tracking") },
                { title: t("history.column.reference") },
                { title: t("history.column.environment") },
                { title: t("history.column.details") },
              ]}
              pagination={{
                hasPrevious: page > 1,
                hasNext,
                onPrevious: () => navigate(pageLink(page - 1)),
                onNext: () => navigate(pageLink(page + 1)),
              }}
            >
              {rows.map((row, index) => (
                <IndexTable.Row id={row.id} key={row.id} position={index} selected={selection.selectedResources.includes(row.id)} disabled={!row.labelUrl}>
                  <IndexTable.Cell>
                    <RemixLink to={orderPath(row.orderId)}>{row.orderName}</RemixLink>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{row.date}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={TONES[row.status]}>{t(`history.status.${row.status}` as MessageKey)}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    {row.trackingNumber ? (
                      row.trackingUrl ? (
                        <Link url={row.trackingUrl} target="_blank">
                          {row.trackingNumber}
                        </Link>
                      ) : (
                        row.trackingNumber
                      )
                    ) : (
                      "—"
                    )}
                  </IndexTable.Cell>
                  <IndexTable.Cell>{row.customReference}</IndexTable.Cell>
                  <IndexTable.Cell>{t(row.environment === "production" ? "env.short.production" : "env.short.staging")}</IndexTable.Cell>
                  <IndexTable.Cell>
                    {row.labelUrl ? (
                      <Link url={row.labelUrl} target="_blank">
                        {t("history.openLabel")}
                      </Link>
                    ) : (
                      (row.error?.[locale] ?? "")
                    )}
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
          )}
        </Card>
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("history.compare.title")}
            </Text>
            <Text as="p" tone="subdued">
              {t("history.compare.body", { environment: t(comparison?.environment === "production" ? "env.short.production" : "env.short.staging") })}
            </Text>
            <Form method="post">
              <Button submit loading={navigation.state === "submitting"}>
                {t("history.compare.action")}
              </Button>
            </Form>
            {comparison && !comparison.ok ? (
              <Text as="p" tone="critical">
                {comparison.reason === "noAccount" ? t("history.compare.noAccount") : comparison.message}
              </Text>
            ) : null}
            {comparison && comparison.ok ? (
              comparison.labels.length === 0 ? (
                <Text as="p">{t("history.compare.none")}</Text>
              ) : (
                <BlockStack gap="100">
                  {comparison.labels.map((label) => (
                    <BlockStack key={label.id} gap="050">
                      <InlineStack gap="200" blockAlign="center">
                        <Badge tone={label.knownLocally ? "success" : "critical"}>
                          {label.knownLocally
                            ? t("history.compare.known", { order: label.orderName ?? "" })
                            : label.orderName
                              ? t("history.compare.unknownLead", { order: label.orderName })
                              : t("history.compare.unknown")}
                        </Badge>
                        <Text as="span">
                          {[
                            label.carrier,
                            label.tracking ? t("history.compare.tracking", { tracking: label.tracking }) : null,
                            label.reference ? t("history.compare.reference", { reference: label.reference }) : null,
                            label.date ? t("history.compare.createdAt", { date: label.date }) : null,
                          ]
                            .filter(Boolean)
                            .join(" · ")}
                        </Text>
                      </InlineStack>
                      <LabelIdDetail id={label.id} />
                    </BlockStack>
                  ))}
                  {comparison.nextPage ? (
                    <InlineStack gap="200" blockAlign="center">
                      <Text as="p" tone="subdued">
                        {t("history.compare.truncated", { from: String(comparison.fromPage), to: String(comparison.toPage) })}
                      </Text>
                      <Form method="post">
                        <input type="hidden" name="fromPage" value={comparison.nextPage} />
                        <Button submit loading={navigation.state === "submitting"}>
                          {t("history.compare.next")}
                        </Button>
                      </Form>
                    </InlineStack>
                  ) : null}
                </BlockStack>
              )
            ) : null}
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}

// Inside the layout: the app's frame and navigation stay, the error is said in the merchant's language.
export function ErrorBoundary() {
  return <AppErrorPage />;
}
