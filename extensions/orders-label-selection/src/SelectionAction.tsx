/**
 * admin.order-index.selection-action.render: "Create labels" for the selected orders. First the free preflight (each
 * order mapped, nothing bought): how many are ready, already labelled, blocked (grouped by cause) or unknown. Then
 * one bulk job for the selection (in production only after the merchant confirms the number of charged labels), its
 * progress while the window is open, and a link to the job's page in the app.
 */
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { Api } from "@shopify/ui-extensions/admin.order-index.selection-action.render";
import { BULK_JOB_MAX_ORDERS } from "../../../app/bulk/types";
import { apiJson, errorMessage, localeOf, reasonLine, textOf, type BulkJobView, type BulkPreflight } from "../../shared/api";

declare const shopify: Api;

export default async () => {
  render(<SelectionAction />, document.body);
};

/** How often the open window reads the job's progress. */
export const PROGRESS_POLL_MS = 2000;

/** A relative app path opens inside the app in the admin (`app:`); anything else is used as it is. */
export function appHref(url: string): string {
  return url.startsWith("/") ? `app:${url}` : url;
}

function SelectionAction() {
  const t = textOf(shopify.i18n);
  const locale = localeOf(shopify.i18n);
  const orderIds = shopify.data.selected.map((order) => order.id);
  const tooMany = orderIds.length > BULK_JOB_MAX_ORDERS;

  const [preflight, setPreflight] = useState<BulkPreflight | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [starting, setStarting] = useState(false);
  const [job, setJob] = useState<{ id: string; url: string } | null>(null);
  const [progress, setProgress] = useState<BulkJobView | null>(null);
  /** Set synchronously on the first click: one selection starts one job. */
  const startRequested = useRef(false);

  useEffect(() => {
    if (tooMany || orderIds.length === 0) return;
    apiJson<BulkPreflight>(`/api/bulk-jobs/preflight?locale=${locale}`, { method: "POST", body: { orderIds } })
      .then(setPreflight)
      .catch((failure) => setError(errorMessage(failure, t("error.preflight"))));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection and the language are fixed while the modal is open: read once
  }, []);

  useEffect(() => {
    if (!job) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      apiJson<BulkJobView>(`/api/bulk-jobs/${encodeURIComponent(job.id)}?locale=${locale}`)
        .then((view) => {
          if (stopped) return;
          setProgress(view);
          if (view.status === "RUNNING") timer = setTimeout(read, PROGRESS_POLL_MS);
        })
        .catch(() => {
          if (!stopped) timer = setTimeout(read, PROGRESS_POLL_MS * 2);
        });
    void read();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection and the language are fixed while the modal is open: read once
  }, [job?.id]);

  const production = preflight?.environment === "production";
  const charged = preflight?.chargedLabels ?? 0;
  const needsConfirmation = production && charged > 0;
  const known = preflight ? orderIds.filter((id) => !preflight.unknown.includes(id)) : [];
  const canStart = Boolean(preflight && preflight.ready.length > 0 && !job && !starting && (!needsConfirmation || confirmed));

  async function start() {
    if (!preflight || !canStart || startRequested.current) return;
    startRequested.current = true;
    setStarting(true);
    setError(null);
    try {
      const body: { orderIds: string[]; confirmChargedLabels?: number } = { orderIds: known };
      if (needsConfirmation) body.confirmChargedLabels = charged;
      setJob(await apiJson<{ id: string; url: string }>(`/api/bulk-jobs?locale=${locale}`, { method: "POST", body }));
    } catch (failure) {
      setError(errorMessage(failure, t("error.start")));
      startRequested.current = false;
    } finally {
      setStarting(false);
    }
  }

  const generic = (code: string) => t("reason.generic", { code });
  const counts = progress?.counts;

  return (
    <s-admin-action heading={t("heading", { count: orderIds.length })} loading={!preflight && !error && !tooMany && orderIds.length > 0}>
      <s-stack gap="base">
        {orderIds.length === 0 && <s-banner tone="warning">{t("noSelection")}</s-banner>}
        {tooMany && <s-banner tone="critical">{t("tooMany", { count: orderIds.length, max: BULK_JOB_MAX_ORDERS })}</s-banner>}
        {error && <s-banner tone="critical" heading={t("error.heading")}>{error}</s-banner>}
        {preflight && !job && (
          <>
            <s-banner tone={production ? "warning" : "info"}>
              {production ? t("environment.production", { count: charged }) : t("environment.staging")}
            </s-banner>
            <s-unordered-list>
              <s-list-item>{t("preflight.ready", { count: preflight.ready.length })}</s-list-item>
              {preflight.alreadyLabelled.length > 0 && <s-list-item>{t("preflight.alreadyLabelled", { count: preflight.alreadyLabelled.length })}</s-list-item>}
              {preflight.blocked.length > 0 && <s-list-item>{t("preflight.blocked", { count: preflight.blocked.length })}</s-list-item>}
              {preflight.unknown.length > 0 && <s-list-item>{t("preflight.unknown", { count: preflight.unknown.length })}</s-list-item>}
            </s-unordered-list>
            {preflight.groups.length > 0 && (
              <s-section heading={t("preflight.causes")}>
                <s-unordered-list>
                  {preflight.groups.map((group, index) => (
                    <s-list-item key={index}>
                      <s-text type="strong">{t("preflight.groupCount", { count: group.orderCount })}</s-text> {reasonLine(group.reason, locale, generic)}{" "}
                      <s-text color="subdued">{group.orderNames.slice(0, 10).join(", ")}{group.orderNames.length > 10 ? "…" : ""}</s-text>
                    </s-list-item>
                  ))}
                </s-unordered-list>
              </s-section>
            )}
            {preflight.ready.length === 0 && <s-banner tone="warning">{t("preflight.noneReady")}</s-banner>}
            {needsConfirmation && (
              <s-checkbox
                label={t("confirm", { count: charged })}
                checked={confirmed}
                onChange={(event) => setConfirmed(Boolean(event.currentTarget.checked))}
              />
            )}
          </>
        )}
        {job && (
          <s-banner tone={progress && progress.status !== "RUNNING" ? "success" : "info"} heading={t(progress && progress.status !== "RUNNING" ? "job.finished" : "job.started")}>
            {counts && (
              <s-paragraph>
                {t("job.progress", { labelled: counts.labelled, total: counts.total })}
                {counts.blocked + counts.refused > 0 && ` ${t("job.failed", { count: counts.blocked + counts.refused })}`}
                {counts.pending > 0 && ` ${t("job.pending", { count: counts.pending })}`}
              </s-paragraph>
            )}
            <s-link href={appHref(job.url)}>{t("job.open")}</s-link>
          </s-banner>
        )}
      </s-stack>
      {!job && (
        <s-button slot="primary-action" variant="primary" onClick={start} disabled={!canStart} loading={starting}>
          {t("start", { count: preflight?.ready.length ?? 0 })}
        </s-button>
      )}
      <s-button slot="secondary-actions" onClick={() => shopify.close()}>
        {t("close")}
      </s-button>
    </s-admin-action>
  );
}
