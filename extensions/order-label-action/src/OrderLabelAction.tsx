/**
 * admin.order-details.action.render: the order's label draft (recipient, parcel, service, CN23 need), the problems
 * that block it with their fixes, and Create label; after the purchase, the tracking number and Print.
 * One click buys at most one label: the button is disabled while the call runs, and nothing is retried by itself.
 */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Api } from "@shopify/ui-extensions/admin.order-details.action.render";
import type { CreateLabelAnswer, OrderLabelSummary } from "../../../app/extensions/order-label-api";
import { apiJson, errorMessage, localeOf, numericId, printableFiles, textOf, type PrintFiles } from "../../shared/api";

declare const shopify: Api;

export default async () => {
  render(<OrderLabelAction />, document.body);
};

type Problems = { message: string; fix: string }[];
type Bought = Extract<CreateLabelAnswer, { outcome: "labelled" }>;

function OrderLabelAction() {
  const t = textOf(shopify.i18n);
  const locale = localeOf(shopify.i18n);
  const orderId = shopify.data.selected[0]?.id ?? "";
  const path = `/api/orders/${numericId(orderId)}/label?locale=${locale}`;

  const [summary, setSummary] = useState<OrderLabelSummary | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<Bought | null>(null);
  const [notice, setNotice] = useState<{ tone: "critical" | "warning"; text: string } | null>(null);
  const [problems, setProblems] = useState<Problems | null>(null);
  const [printUrl, setPrintUrl] = useState<string | null>(null);
  /** Set synchronously on the first click, so a second click before the re-render cannot send a second purchase. */
  const inFlight = useRef(false);

  useEffect(() => {
    apiJson<OrderLabelSummary>(path)
      .then(setSummary)
      .catch((error) => setLoadError(errorMessage(error, t("error.load"))));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection and the language are fixed while the modal is open: read once
  }, [path]);

  const labelled = created !== null || summary?.state === "labelled";
  useEffect(() => {
    if (!labelled) return;
    apiJson<PrintFiles>("/api/print", { method: "POST", body: { orderIds: [orderId] } })
      .then((answer) => setPrintUrl(printableFiles(answer)[0]?.url ?? null))
      .catch(() => setPrintUrl(null));
  }, [labelled, orderId]);

  async function create() {
    if (inFlight.current) return;
    inFlight.current = true;
    setCreating(true);
    setNotice(null);
    try {
      const answer = await apiJson<CreateLabelAnswer>(path, { method: "POST" });
      if (answer.outcome === "labelled") setCreated(answer);
      else if (answer.outcome === "blocked") setProblems(answer.problems);
      else setNotice({ tone: answer.outcome === "pending" ? "warning" : "critical", text: answer.message });
    } catch (error) {
      setNotice({ tone: "critical", text: errorMessage(error, t("error.create")) });
    } finally {
      inFlight.current = false;
      setCreating(false);
    }
  }

  const heading = summary ? t("heading", { order: summary.orderName }) : t("headingLoading");
  const shownProblems = problems ?? summary?.problems ?? [];
  const label = created?.label ?? summary?.labels.at(-1) ?? null;
  const canCreate = summary?.state === "ready" && !created && !problems && !creating;

  return (
    <s-admin-action heading={heading} loading={!summary && !loadError}>
      <s-stack gap="base">
        {loadError && <s-banner tone="critical" heading={t("error.heading")}>{loadError}</s-banner>}
        {summary && !labelled && (
          <s-banner tone={summary.environment === "production" ? "warning" : "info"}>
            {t(summary.environment === "production" ? "environment.production" : "environment.staging")}
          </s-banner>
        )}
        {notice && <s-banner tone={notice.tone}>{notice.text}</s-banner>}
        {label && labelled && (
          <s-banner tone="success" heading={t(created?.alreadyLabelled === false ? "label.created" : "label.exists")}>
            <s-paragraph>{t("label.tracking", { number: label.trackingNumber })}</s-paragraph>
            {label.trackingUrl && <s-link href={label.trackingUrl} target="_blank">{t("label.track")}</s-link>}
            {created?.note && <s-paragraph>{created.note}</s-paragraph>}
          </s-banner>
        )}
        {summary?.state === "pending" && summary.note && <s-banner tone="warning">{summary.note}</s-banner>}
        {summary?.state === "nothing_to_ship" && <s-banner tone="info">{t("nothingToShip")}</s-banner>}
        {shownProblems.length > 0 && !labelled && (
          <s-banner tone="critical" heading={t("problems.heading", { count: shownProblems.length })}>
            <s-unordered-list>
              {shownProblems.map((problem, index) => (
                <s-list-item key={index}>
                  {problem.message} <s-text type="strong">{problem.fix}</s-text>
                </s-list-item>
              ))}
            </s-unordered-list>
          </s-banner>
        )}
        {summary?.draft && !labelled && <Draft draft={summary.draft} t={t} />}
      </s-stack>
      {labelled ? (
        <s-button slot="primary-action" variant="primary" href={printUrl ?? undefined} target="_blank" disabled={!printUrl}>
          {t("print")}
        </s-button>
      ) : (
        <s-button slot="primary-action" variant="primary" onClick={create} disabled={!canCreate} loading={creating}>
          {t("create")}
        </s-button>
      )}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("close")}
      </s-button>
    </s-admin-action>
  );
}

function Draft({ draft, t }: { draft: NonNullable<OrderLabelSummary["draft"]>; t: ReturnType<typeof textOf> }) {
  return (
    <s-stack gap="small-200">
      <s-heading>{t("draft.recipient")}</s-heading>
      <s-stack gap="none">
        {[draft.recipient.name, ...draft.recipient.lines, draft.recipient.country].map((line, index) => (
          <s-text key={index}>{line}</s-text>
        ))}
      </s-stack>
      <s-heading>{t("draft.parcel")}</s-heading>
      <s-paragraph>
        {draft.parcel.box ? t("draft.box", { box: draft.parcel.box }) : t("draft.noBox")}
        {draft.parcel.weightGrams !== null && ` · ${t("draft.weight", { grams: draft.parcel.weightGrams })}`}
      </s-paragraph>
      <s-heading>{t("draft.service")}</s-heading>
      <s-paragraph>{draft.service ?? t("draft.noService")}</s-paragraph>
      <s-heading>{t("draft.customs")}</s-heading>
      <s-paragraph>{t(draft.customsRequired ? "draft.cn23Needed" : "draft.cn23NotNeeded")}</s-paragraph>
    </s-stack>
  );
}
