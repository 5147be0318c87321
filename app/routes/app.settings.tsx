import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useContext, useEffect, useState } from "react";
import { requireAdmin } from "../auth.server";
import { config } from "../config.server";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { LocaleContext, useT } from "../i18n/translate";
import { accountSummaries } from "../labels/accounts.server";
import { LABEL_ENVIRONMENTS, type LabelEnvironment } from "../labels/environments";
import { testLabelServiceConnection } from "../labels/gateway.server";
import { appSecretBox } from "../security/app-secret-box.server";
import { getEnvironment } from "../settings/environment.server";
import { handleSettingsAction } from "../settings/settings-actions.server";
import { ShippingSettingsCard, type ServiceOption } from "../components/ShippingSettingsCard";
import type { FieldError } from "../settings/field-errors";
import { loadShippingSettingsState, saveShippingSettingsForm } from "../settings/shipping-settings.server";
import { MAX_BOXES, parseShippingSettingsFields, senderFromShop, settingsToFields } from "../settings/shipping-settings-form";
import { fetchShopAddress } from "../shopify/operations/shop-address";
import { fetchShopLocations } from "../shopify/operations/locations";
import { handleLocationSenderAction, locationSenderRows } from "../settings/location-senders.server";
import { LocationSendersCard, type LocationActionResult } from "../components/settings/LocationSendersCard";
import { AppErrorPage } from "../components/AppErrorPage";
import { TestLabelsCard } from "../components/TestLabelsCard";
import { zoneServices } from "../settings/zone-services.server";
import { useResolved } from "../components/loading";
import { useAppBridgeUi } from "../components/settings/app-bridge";
import { testLabelsAction, testLabelsState } from "../settings/test-labels.server";
import { formatDateTime } from "../i18n/dates";
import { dateContextFor } from "../i18n/dates.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop, admin } = await requireAdmin(request);
  const [accounts, environment, shipping, testLabels, locations] = await Promise.all([
    accountSummaries(db, shop),
    getEnvironment(db, shop),
    loadShippingSettingsState(db, shop),
    testLabelsState({ db, admin }, shop),
    // Senders per location: a list Shopify cannot give now leaves the rest of the page usable.
    fetchShopLocations(admin).catch(() => null),
  ]);
  const settings = shipping.configured ? shipping.settings : senderFromShop(shipping.settings, await fetchShopAddress(admin));
  // Services offered per zone, from the label service's lookup (a representative destination per zone): cached, and
  // not awaited here, so the page never waits on the label service (decision 0174); the form fills them in.
  const services = zoneServices(shop, environment.environment, settings.sender.countryCode);
  return {
    accounts,
    environment: {
      environment: environment.environment,
      // Formatted once, here, in the merchant's language and the shop's time zone (app/i18n/dates.ts).
      productionConfirmedAt: environment.productionConfirmedAt
        ? formatDateTime(environment.productionConfirmedAt, await dateContextFor(request, admin, shop))
        : null,
      productionConfirmedBy: environment.productionConfirmedBy,
    },
    productionConfigured: Boolean(config().LABEL_SERVICE_PRODUCTION_URL),
    testLabels,
    shippingFields: settingsToFields(settings),
    shippingConfigured: shipping.configured,
    services,
    maxBoxes: MAX_BOXES,
    locationRows: locationSenderRows(settings, locations ?? []),
    locationsUnavailable: locations === null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { shop, staffUserId, admin } = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") === "setFulfilTestLabels") return testLabelsAction({ db, admin }, shop, form);
  if (form.get("intent") === "saveLocationSender" || form.get("intent") === "removeLocationSender") {
    return { location: await handleLocationSenderAction(db, shop, Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]))) };
  }
  if (form.get("intent") === "saveShipping") {
    const fields = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
    const parsed = parseShippingSettingsFields(fields);
    if (!parsed.ok) {
      // Each error is shown under its field; the banner only says that nothing was saved.
      const count = Object.keys(parsed.fieldErrors).length;
      return {
        intent: "saveShipping",
        ok: false as const,
        fieldErrors: parsed.fieldErrors,
        messageKey: count === 1 ? ("settings.shipping.notSavedOne" as const) : ("settings.shipping.notSaved" as const),
        values: { count: String(count) },
      };
    }
    await saveShippingSettingsForm(db, shop, parsed.settings);
    return { intent: "saveShipping", ok: true as const, messageKey: "settings.saved" as const };
  }
  return handleSettingsAction(
    {
      db,
      box: appSecretBox(),
      shop,
      staffUserId,
      productionConfigured: Boolean(config().LABEL_SERVICE_PRODUCTION_URL),
      testConnection: (environment, credentials) => testLabelServiceConnection(shop, environment, credentials),
    },
    form,
  );
}

const NO_SERVICES: Record<"domestic" | "eu" | "world", ServiceOption[]> = { domestic: [], eu: [], world: [] };

function AccountCard({ environment }: { environment: LabelEnvironment }) {
  const t = useT();
  const { accounts } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const saved = accounts.find((account) => account.environment === environment);
  const [email, setEmail] = useState(saved?.email ?? "");
  const [password, setPassword] = useState("");
  const busy =
    navigation.state !== "idle" && navigation.formData?.get("environment") === environment
      ? String(navigation.formData.get("intent"))
      : undefined;
  const fieldErrors =
    result && "environment" in result && result.environment === environment && !result.ok ? result.fieldErrors : undefined;
  const envName = t(environment === "production" ? "env.short.production" : "env.short.staging");
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("settings.account.title", { environment: envName })}
          </Text>
          {saved ? <Badge tone="success">{t("settings.account.savedBadge")}</Badge> : null}
        </InlineStack>
        <Text as="p" tone="subdued">
          {saved ? t("settings.account.help") : t("settings.account.none")}
        </Text>
        <Form method="post">
          <input type="hidden" name="environment" value={environment} />
          <input type="hidden" name="intent" value="saveAccount" />
          <FormLayout>
            <TextField
              label={t("settings.account.email")}
              name="email"
              type="email"
              value={email}
              onChange={setEmail}
              autoComplete="off"
              error={fieldErrors?.email ? t(fieldErrors.email) : undefined}
            />
            <TextField
              label={t("settings.account.password")}
              name="password"
              type="password"
              value={password}
              onChange={setPassword}
              autoComplete="new-password"
              helpText={saved ? t("settings.account.passwordSaved") : undefined}
              error={fieldErrors?.password ? t(fieldErrors.password) : undefined}
            />
            <Button submit loading={busy === "saveAccount"}>
              {t("settings.account.save")}
            </Button>
          </FormLayout>
        </Form>
        <Form method="post">
          <input type="hidden" name="environment" value={environment} />
          <input type="hidden" name="intent" value="testConnection" />
          <Button submit disabled={!saved} loading={busy === "testConnection"}>
            {t("settings.account.test")}
          </Button>
        </Form>
      </BlockStack>
    </Card>
  );
}

function EnvironmentCard() {
  const t = useT();
  const { environment, productionConfigured } = useLoaderData<typeof loader>();
  const [confirm, setConfirm] = useState(false);
  const current = environment.environment;
  return (
    <Card>
      <BlockStack gap="300">
        <InlineStack gap="200" blockAlign="center">
          <Text as="h2" variant="headingMd">
            {t("settings.env.title")}
          </Text>
          <Badge tone={current === "production" ? "critical" : "info"}>
            {t(current === "production" ? "env.production" : "env.staging")}
          </Badge>
        </InlineStack>
        <Text as="p">{t("settings.env.help")}</Text>
        {current === "production" && environment.productionConfirmedAt ? (
          <Text as="p" tone="subdued">
            {t("settings.env.confirmedBy", {
              who: environment.productionConfirmedBy ?? "?",
              date: environment.productionConfirmedAt,
            })}
          </Text>
        ) : null}
        <Form method="post">
          <input type="hidden" name="intent" value="setEnvironment" />
          {current === "production" ? (
            <>
              <input type="hidden" name="environment" value="staging" />
              <Button submit>{t("settings.env.useStaging")}</Button>
            </>
          ) : (
            <BlockStack gap="200">
              <input type="hidden" name="environment" value="production" />
              {productionConfigured ? null : (
                <Banner tone="info">{t("settings.env.error.production_not_configured")}</Banner>
              )}
              <Checkbox label={t("settings.env.confirm")} name="confirmCharges" checked={confirm} onChange={setConfirm} />
              <InlineStack>
                <Button submit tone="critical" disabled={!confirm || !productionConfigured}>
                  {t("settings.env.useProduction")}
                </Button>
              </InlineStack>
            </BlockStack>
          )}
        </Form>
      </BlockStack>
    </Card>
  );
}

export default function Settings() {
  const t = useT();
  const locale = useContext(LocaleContext);
  const result = useActionData<typeof action>();
  const data = useLoaderData<typeof loader>();
  const raw: Record<string, string> | undefined = result?.values;
  const values = raw ? { ...raw, message: locale === "fr" ? (raw.messageFr ?? raw.message ?? "") : (raw.message ?? "") } : undefined;
  const services = useResolved(data.services);
  // Inside the admin a success is an App Bridge toast; without App Bridge (the demo) it stays a banner.
  const ui = useAppBridgeUi();
  const toasted = Boolean(ui && result?.ok && "messageKey" in result && result.messageKey);
  useEffect(() => {
    if (ui && result?.ok && "messageKey" in result && result.messageKey) ui.toast.show(t(result.messageKey, values));
    // Once per action result.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result, ui]);
  return (
    <Page title={t("settings.title")}>
      <Layout>
        {result && "messageKey" in result && result.messageKey && !toasted ? (
          <Layout.Section>
            <Banner tone={result.ok ? "success" : "critical"}>{t(result.messageKey, values)}</Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <EnvironmentCard />
            <TestLabelsCard on={data.testLabels.on} developmentStore={data.testLabels.developmentStore} />
            {LABEL_ENVIRONMENTS.map((environment) => (
              <AccountCard key={environment} environment={environment} />
            ))}
            <ShippingSettingsCard
              fields={data.shippingFields}
              configured={data.shippingConfigured}
              fieldErrors={result && "intent" in result && result.intent === "saveShipping" && !result.ok ? (result.fieldErrors as Record<string, FieldError>) : undefined}
              services={services ?? NO_SERVICES}
              servicesLoading={services === undefined}
              maxBoxes={data.maxBoxes}
            />
            <LocationSendersCard
              rows={data.locationRows}
              configured={data.shippingConfigured}
              unavailable={data.locationsUnavailable}
              result={result && "location" in result ? (result.location as LocationActionResult) : undefined}
            />
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}

// Inside the layout: the app's frame and navigation stay, the error is said in the merchant's language.
export function ErrorBoundary() {
  return <AppErrorPage />;
}
