import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link as RemixLink, useActionData, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, Text } from "@shopify/polaris";
import { useContext } from "react";
import { z } from "zod";
import { requireAdmin } from "../auth.server";
import db from "../db.server";
import { LocaleContext, useT } from "../i18n/translate";
import { customerDataExport, listDataRequests, markHandedOver } from "../privacy/data-request.server";

const querySchema = z.object({ request: z.string().min(1).max(64).optional().catch(undefined) });
const actionSchema = z.object({ intent: z.literal("handedOver"), id: z.string().min(1).max(64) });

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const { request: selectedId } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const requests = await listDataRequests(db, shop);
  const selected = selectedId ? await customerDataExport(db, shop, selectedId) : null;
  return {
    requests: requests.map((entry) => ({ ...entry, receivedAt: entry.receivedAt.toISOString(), handedOverAt: entry.handedOverAt?.toISOString() ?? null })),
    selectedId: selected ? selectedId : null,
    notFound: Boolean(selectedId) && !selected,
    exportJson: selected ? JSON.stringify(selected, null, 2) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { shop } = await requireAdmin(request);
  const parsed = actionSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return { ok: false as const };
  return { ok: await markHandedOver(db, shop, parsed.data.id) };
}

function download(json: string, id: string) {
  const url = URL.createObjectURL(new Blob([json], { type: "application/json" }));
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = `customer-data-request-${id}.json`;
  anchor.click();
  URL.revokeObjectURL(url);
}

export default function CustomerDataRequests() {
  const t = useT();
  const locale = useContext(LocaleContext);
  const { requests, selectedId, notFound, exportJson } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const date = (iso: string) => new Date(iso).toLocaleDateString(locale === "fr" ? "fr-FR" : "en-GB");
  return (
    <Page title={t("privacy.title")}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <Text as="p">{t("privacy.intro")}</Text>
            {notFound || result?.ok === false ? <Banner tone="critical">{t("privacy.error.notFound")}</Banner> : null}
            {requests.length === 0 ? (
              <Card>
                <Text as="p">{t("privacy.empty")}</Text>
              </Card>
            ) : null}
            {requests.map((entry) => (
              <Card key={entry.id}>
                <BlockStack gap="200">
                  <InlineStack gap="200" align="space-between">
                    <Text as="h2" variant="headingSm">
                      {t("privacy.request.heading", { date: date(entry.receivedAt) })}
                    </Text>
                    <Badge tone={entry.handedOverAt ? "success" : "attention"}>
                      {entry.handedOverAt ? t("privacy.status.handedOver", { date: date(entry.handedOverAt) }) : t("privacy.status.pending")}
                    </Badge>
                  </InlineStack>
                  <Text as="p">
                    {entry.customerId ? t("privacy.request.customer", { customer: entry.customerId }) : t("privacy.request.unknownCustomer")}
                  </Text>
                  <Text as="p" tone="subdued">
                    {t("privacy.request.summary", { orders: entry.orderCount, records: entry.recordsFound })}
                  </Text>
                  <InlineStack gap="200">
                    <RemixLink to={`?request=${encodeURIComponent(entry.id)}`}>{t("privacy.action.show")}</RemixLink>
                  </InlineStack>
                  {selectedId === entry.id && exportJson ? (
                    <BlockStack gap="200">
                      <Text as="h3" variant="headingSm">
                        {t("privacy.export.heading")}
                      </Text>
                      <Text as="p" tone="subdued">
                        {t("privacy.export.help")}
                      </Text>
                      <Box padding="200" background="bg-surface-secondary" borderRadius="200" overflowX="scroll">
                        <pre style={{ margin: 0, maxHeight: "24rem", overflow: "auto" }}>{exportJson}</pre>
                      </Box>
                      <InlineStack gap="200">
                        <Button onClick={() => download(exportJson, entry.id)}>{t("privacy.action.download")}</Button>
                        {entry.handedOverAt ? null : (
                          <Form method="post">
                            <input type="hidden" name="intent" value="handedOver" />
                            <input type="hidden" name="id" value={entry.id} />
                            <Button submit variant="primary">
                              {t("privacy.action.handedOver")}
                            </Button>
                          </Form>
                        )}
                      </InlineStack>
                    </BlockStack>
                  ) : null}
                </BlockStack>
              </Card>
            ))}
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
