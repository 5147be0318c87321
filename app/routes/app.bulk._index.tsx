/** The shop's recent bulk jobs, newest first, each with its counts and a link to its progress page. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, Card, EmptyState, IndexTable, Link, Page, Text, type BadgeProps } from "@shopify/polaris";
import { requireAdmin } from "../auth.server";
import { listBulkJobs } from "../bulk/bulk-jobs.server";
import { bulkJobUrl, type BulkJobStatus } from "../bulk/types";
import { jobSummaryRow } from "../bulk/ui-pages.server";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { dateContextFor } from "../i18n/dates.server";
import { useT } from "../i18n/translate";
import { answeringShopifyBusy } from "../shopify/busy.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { admin, shop } = await requireAdmin(request);
  const [jobs, dates] = await Promise.all([listBulkJobs(db, shop, { limit: 50 }), answeringShopifyBusy(dateContextFor(request, admin, shop))]);
  return { jobs: jobs.map((job) => jobSummaryRow(job, dates)) };
}

const TONES: Record<BulkJobStatus, BadgeProps["tone"]> = { RUNNING: "info", COMPLETED: "success", CANCELLED: undefined };

export default function BulkJobs() {
  const { jobs } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <Page title={t("bulk.list.title")} backAction={{ content: t("nav.orders"), url: "/app" }}>
      <Card padding="0">
        <IndexTable
          selectable={false}
          resourceName={{ singular: t("bulk.list.title"), plural: t("bulk.list.title") }}
          itemCount={jobs.length}
          emptyState={
            <EmptyState heading={t("bulk.list.empty.heading")} image="/empty-orders.svg" action={{ content: t("nav.orders"), url: "/app" }}>
              <p>{t("bulk.list.empty.body")}</p>
            </EmptyState>
          }
          headings={[
            { title: t("bulk.list.column.created") },
            { title: t("bulk.list.column.status") },
            { title: t("bulk.list.column.environment") },
            { title: t("bulk.list.column.orders"), alignment: "end" },
            { title: t("bulk.list.column.labelled"), alignment: "end" },
            { title: t("bulk.list.column.failed"), alignment: "end" },
            { title: t("bulk.list.column.remaining"), alignment: "end" },
          ]}
        >
          {jobs.map((job, index) => (
            <IndexTable.Row key={job.id} id={job.id} position={index}>
              <IndexTable.Cell>
                <Link url={bulkJobUrl(job.id)} removeUnderline>
                  <Text as="span" fontWeight="semibold">
                    {job.createdAt}
                  </Text>
                </Link>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Badge tone={TONES[job.status]}>{t(`bulk.job.status.${job.status}`)}</Badge>
              </IndexTable.Cell>
              <IndexTable.Cell>{t(`bulk.list.environment.${job.environment}`)}</IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {job.counts.total}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {job.counts.labelled}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {job.counts.refused + job.counts.blocked}
                </Text>
              </IndexTable.Cell>
              <IndexTable.Cell>
                <Text as="span" alignment="end" numeric>
                  {job.counts.remaining}
                </Text>
              </IndexTable.Cell>
            </IndexTable.Row>
          ))}
        </IndexTable>
      </Card>
    </Page>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}
