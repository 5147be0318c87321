/**
 * The two print actions' body: ask the app for the selected orders' labels as one file per format
 * (`POST /api/print`), give the admin's Print button the PDF (`s-admin-print-action src`), let the merchant pick the
 * format when the labels come in two (A4 sheets and 10×15 labels are never mixed in one file), and point thermal
 * labels (ZPL/DPL, which the admin cannot print) to their download.
 */
import { useEffect, useState } from "preact/hooks";
import { apiJson, errorMessage, printableFiles, thermalFiles, type PrintFiles, type Translator, textOf } from "./api";

export function PrintLabels({ i18n, orderIds }: { i18n: Translator; orderIds: string[] }) {
  const t = textOf(i18n);
  const [files, setFiles] = useState<PrintFiles["files"] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState(0);

  useEffect(() => {
    if (orderIds.length === 0) return;
    apiJson<PrintFiles>("/api/print", { method: "POST", body: { orderIds } })
      .then((answer) => setFiles(answer.files))
      .catch((failure) => setError(errorMessage(failure, t("error.load"))));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the selection and the language are fixed while the modal is open: read once
  }, [orderIds.join(",")]);

  const pdfs = files ? printableFiles({ files }) : [];
  const thermal = files ? thermalFiles({ files }) : [];
  const current = pdfs[chosen] ?? pdfs[0];
  const formatName = (format: string) => {
    const name = t(`format.${format}`);
    return name === `format.${format}` || !name ? format : name;
  };

  return (
    <s-admin-print-action src={current?.url}>
      <s-stack gap="base">
        {orderIds.length === 0 && <s-banner tone="warning">{t("noSelection")}</s-banner>}
        {error && <s-banner tone="critical" heading={t("error.heading")}>{error}</s-banner>}
        {!files && !error && orderIds.length > 0 && <s-spinner accessibilityLabel={t("loading")} />}
        {files && files.length === 0 && <s-banner tone="info">{t("noLabels", { count: orderIds.length })}</s-banner>}
        {current && (
          <s-paragraph>
            {t("ready", { count: current.labelCount, format: formatName(current.format) })}
          </s-paragraph>
        )}
        {pdfs.length > 1 && (
          <s-select label={t("chooseFormat")} value={String(chosen)} onChange={(event) => setChosen(Number(event.currentTarget.value))}>
            {pdfs.map((file, index) => (
              <s-option key={file.url} value={String(index)}>
                {t("formatOption", { format: formatName(file.format), count: file.labelCount })}
              </s-option>
            ))}
          </s-select>
        )}
        {thermal.map((file) => (
          <s-banner key={file.url} tone="info" heading={t("thermal.heading", { count: file.labelCount })}>
            <s-paragraph>{t("thermal.body")}</s-paragraph>
            <s-link href={file.url} target="_blank">{t("thermal.download")}</s-link>
          </s-banner>
        ))}
      </s-stack>
    </s-admin-print-action>
  );
}
