import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useActionData, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, IndexTable, InlineStack, Link, Page, Select, Text, TextField } from "@shopify/polaris";
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
import { HISTORY_STATUSES, type HistoryStatus } from "../labels/history-statuses";

const filtersSchema = z.object({
  status: z.enum(HISTORY_STATUSES).optional().catch(undefined),
  environment: z.enum(["staging", "production"]).optional().catch(undefined),
  from: z.iso.date().optional().catch(undefined),
  to: z.iso.date().optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).default(1).catch(1),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const params = filtersSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const to = params.to ? new Date(`${params.to}T00:00:00Z`) : undefined;
  if (to) to.setUTCDate(to.getUTCDate() + 1); // inclusive end day
  const history = await labelHistory(
    db,
    shop,
    {
      status: params.status,
      environment: params.environment,
      from: params.from ? new Date(`${params.from}T00:00:00Z`) : undefined,
      to,
    },
    params.page,
  );
  return { ...history, filters: params };
}

/** "Compare with the label service": the remote list (bounded), each label flagged known or unknown here. */
/** Remote pages compared per click; "next pages" continues from where the last comparison stopped. */
const COMPARE_PAGES = 10;
const compareForm = z.object({ fromPage: z.coerce.number().int().min(1).max(100_000).catch(1) });

export async function action({ request }: ActionFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const { environment } = await getEnvironment(db, shop);
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
  needs_review: "warning",
  pending: "info",
  rejected: undefined,
};

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
              selectable={false}
              itemCount={rows.length}
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
                <IndexTable.Row id={row.id} key={row.id} position={index}>
                  <IndexTable.Cell>
                    <RemixLink to={orderPath(row.orderId)}>{row.orderName}</RemixLink>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{new Date(row.createdAt).toLocaleString()}</IndexTable.Cell>
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
                    <InlineStack key={label.id} gap="200">
                      <Badge tone={label.knownLocally ? "success" : "critical"}>
                        {label.knownLocally
                          ? t("history.compare.known", { order: label.orderName ?? "" })
                          : label.orderName
                            ? t("history.compare.unknownLead", { order: label.orderName })
                            : t("history.compare.unknown")}
                      </Badge>
                      <Text as="span">{[label.id, label.reference, label.custom_reference, label.carrier_name, label.created_at].filter(Boolean).join(" · ")}</Text>
                    </InlineStack>
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
