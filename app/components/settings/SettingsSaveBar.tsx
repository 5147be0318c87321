import { SaveBar } from "@shopify/app-bridge-react";
import { Banner } from "@shopify/polaris";
import { useEffect } from "react";
import { useT } from "../../i18n/translate";
import type { AppBridgeUi } from "./app-bridge";

export const SETTINGS_SAVE_BAR_ID = "etiquette-settings-save-bar";

/**
 * The unsaved-changes guard of the shipping settings form (issue 16 item 10). Inside the admin: App Bridge's
 * contextual Save Bar (Save / Discard, and the admin asks before leaving). Without App Bridge (the demo): a Polaris
 * banner saying so with Discard (the form keeps its own Save button), and the browser asks before the page is left.
 */
export function SettingsSaveBar({
  ui,
  dirty,
  saving,
  onSave,
  onDiscard,
}: {
  ui: AppBridgeUi | undefined;
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
}) {
  const t = useT();
  useEffect(() => {
    if (!dirty || ui) return;
    const guard = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers need a value here to ask.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", guard);
    return () => window.removeEventListener("beforeunload", guard);
  }, [dirty, ui]);

  if (ui) {
    // App Bridge styles the bar's own <button>s; `variant` and `loading` are its attributes, not React's.
    const primary: Record<string, string> = { variant: "primary", ...(saving ? { loading: "" } : {}) };
    return (
      <SaveBar id={SETTINGS_SAVE_BAR_ID} open={dirty} discardConfirmation>
        <button type="button" {...primary} onClick={onSave}>
          {t("settings.shipping.save")}
        </button>
        <button type="button" onClick={onDiscard}>
          {t("real.settings.discard")}
        </button>
      </SaveBar>
    );
  }
  if (!dirty) return null;
  // The form's own Save button stays below (one Save on the page); the banner says why and offers Discard.
  return (
    <Banner tone="warning" action={{ content: t("real.settings.discard"), onAction: onDiscard }}>
      {t("real.settings.unsaved")}
    </Banner>
  );
}
