/**
 * /app/print: the shop's print files of the last 24 hours, each with its download when ready. The app's Print
 * buttons (order page, label history selection, orders list "Print unprinted") post here; large files are built by
 * the print-file job and this page checks again every few seconds until they are ready.
 */
import { bulkJobLabelIds } from "../bulk/ui-pages.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";
import { useEffect } from "react";
import { requireAdmin } from "../auth.server";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { formFields, readForm } from "../http/form.server";
import type { MessageKey } from "../i18n/messages";
import { useT } from "../i18n/translate";
import { printFormRequest } from "../print/form";
import { handlePrintRequest } from "../print/print-request.server";
import { listPrintFiles, PrintRequestError, type PrintFileView } from "../print/print.server";
import { printNoticeText, printProblemText } from "../print/problem-text";
import { appLabelFiles, runningQueue } from "../print/runtime.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop } = await requireAdmin(request);
  return { files: await listPrintFiles(db, shop) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { shop, admin } = await requireAdmin(request);
  const form = await readForm(request);
  const printRequest = printFormRequest(formFields(form), form.getAll("labelIds"));
  if (!printRequest) return { ok: false as const, problem: { code: "invalid", params: {} } };
  try {
    const { files, notice } = await handlePrintRequest(db, shop, printRequest, { files: appLabelFiles(), queue: await runningQueue(), admin, bulkJobLabelIds });
    return { ok: true as const, created: files.map((file) => file.id), notice };
  } catch (error) {
    if (error instanceof PrintRequestError) return { ok: false as const, problem: error.problem };
    throw error;
  }
}

function PrintFileRow({ file, isNew }: { file: PrintFileView; isNew: boolean }) {
  const t = useT();
  const thermal = !file.format.startsWith("PDF");
  return (
    <BlockStack gap="100">
      <InlineStack gap="300" blockAlign="center">
        <Text as="span" fontWeight={isNew ? "bold" : "regular"}>
          {t(`format.${file.format}` as MessageKey)} · {t("print.file.labels", { count: file.labelCount })}
        </Text>
        <Badge tone={file.status === "READY" ? "success" : file.status === "FAILED" ? "critical" : "info"}>
          {t(file.status === "READY" ? "print.file.ready" : file.status === "FAILED" ? "print.file.failed" : "print.file.pending")}
        </Badge>
        {file.status === "READY" ? (
          <>
            <Button variant="primary" url={file.url} target="_blank" download>
              {t("print.file.download")}
            </Button>
            {thermal ? null : (
              <Button url={`${file.url}&disposition=inline`} target="_blank">
                {t("print.file.openPdf")}
              </Button>
            )}
          </>
        ) : null}
      </InlineStack>
      {file.status === "READY" && thermal ? (
        <Text as="p" tone="subdued">
          {t("print.file.thermalHelp")}
        </Text>
      ) : null}
      {file.status === "FAILED" && file.problem ? (
        <Text as="p" tone="critical">
          {printProblemText(t, file.problem)}
        </Text>
      ) : null}
    </BlockStack>
  );
}

export default function PrintFiles() {
  const t = useT();
  const { files } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const pending = files.some((file) => file.status === "PENDING");
  useEffect(() => {
    if (!pending || revalidator.state !== "idle") return;
    const timer = setTimeout(() => revalidator.revalidate(), 3000);
    return () => clearTimeout(timer);
  }, [pending, revalidator]);
  const created = new Set(result?.ok ? result.created : []);
  return (
    <Page title={t("print.title")} backAction={{ url: "/app" }}>
      <BlockStack gap="400">
        {result && !result.ok ? <Banner tone="critical">{printProblemText(t, result.problem)}</Banner> : null}
        {result?.ok && result.notice ? <Banner tone="warning">{printNoticeText(t, result.notice)}</Banner> : null}
        {pending ? <Banner tone="info">{t("print.file.pendingHelp")}</Banner> : null}
        <Card>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {t("print.files.heading")}
            </Text>
            {files.length === 0 ? <Text as="p">{t("print.files.empty")}</Text> : null}
            {files.map((file) => (
              <PrintFileRow key={file.id} file={file} isNew={created.has(file.id)} />
            ))}
          </BlockStack>
        </Card>
      </BlockStack>
    </Page>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}
