import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Banner, BlockStack, Button, Card, DataTable, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { randomUUID } from "node:crypto";
import { useContext, useRef, useState } from "react";
import { requireAdmin } from "../auth.server";
import { AppErrorPage } from "../components/AppErrorPage";
import db from "../db.server";
import { readForm } from "../http/form.server";
import { LocaleContext, useT } from "../i18n/translate";
import { carrierServicesCache } from "../labels/carrier-services-cache.server";
import { labelServiceClientFor } from "../labels/gateway.server";
import { getEnvironment } from "../settings/environment.server";
import { emptyRuleRow, ruleFieldName, rowFromRule, rowsFromForm, type RULE_FIELDS, type RuleFieldError, type RuleRow } from "../settings/rules-form";
import { parseRuleRows } from "../settings/rules-form.server";
import { auditShopRules, nameSimulatedServices, simulateRules, type SimulatedOrder } from "../settings/rules.server";
import { loadShippingSettingsState, saveShippingRules } from "../settings/shipping-settings.server";
import type { RuleConflict } from "../shipping/rules";

export async function loader({ request }: LoaderFunctionArgs) {
  const { shop } = await requireAdmin(request);
  // Nothing here waits on the label service: its list of services is read only when the merchant asks (Check services).
  const { settings, configured } = await loadShippingSettingsState(db, shop);
  return { configured, rows: settings.rules.map(rowFromRule), boxes: settings.boxes.map((box) => box.name) };
}

type ActionResult = {
  rows: RuleRow[];
  /** Changes on every answer so the rows' inputs are rebuilt from it. */
  revision: string;
  saved?: boolean;
  errors?: Record<string, RuleFieldError>;
  simulation?: SimulatedOrder[];
  conflicts?: (RuleConflict & { position: number })[];
  checkFailed?: boolean;
};

export async function action({ request }: ActionFunctionArgs): Promise<ActionResult> {
  const { shop, admin } = await requireAdmin(request);
  const form = await readForm(request);
  const fields = Object.fromEntries([...form.entries()].map(([key, value]) => [key, String(value)]));
  const intent = fields.intent ?? "";
  const rows = rowsFromForm(fields).map((row) => (row.id ? row : { ...row, id: randomUUID().slice(0, 8) }));
  const revision = randomUUID();
  const move = /^(remove|up|down):([0-9]{1,2})$/.exec(intent);
  if (intent === "add") return { rows: [...rows, emptyRuleRow(randomUUID().slice(0, 8))].slice(0, 50), revision };
  if (move) {
    const index = Number(move[2]);
    const next = [...rows];
    if (move[1] === "remove") next.splice(index, 1);
    else {
      const other = move[1] === "up" ? index - 1 : index + 1;
      if (next[index] && next[other]) [next[index], next[other]] = [next[other]!, next[index]!];
    }
    return { rows: next, revision };
  }
  const { settings, configured } = await loadShippingSettingsState(db, shop);
  const parsed = parseRuleRows(rows, settings.boxes.map((box) => box.name));
  if (!parsed.ok) return { rows, revision, errors: parsed.errors, saved: false };
  if (intent === "simulate") {
    const simulation = await simulateRules(admin, parsed.rules, settings);
    // The services by their own names where the (cached) lookup answers; their codes otherwise.
    const { environment } = await getEnvironment(db, shop);
    const client = await labelServiceClientFor(shop, environment).catch(() => undefined);
    if (!client) return { rows, revision, simulation };
    const lookup = (country: string) => carrierServicesCache.get(shop, environment, country, () => client.carrierServices(country));
    return { rows, revision, simulation: await nameSimulatedServices(simulation, lookup) };
  }
  if (intent === "check") {
    const { environment } = await getEnvironment(db, shop);
    let client;
    try {
      client = await labelServiceClientFor(shop, environment);
    } catch {
      return { rows, revision, checkFailed: true };
    }
    // The countries a rule without its own countries can meet: those of the recent orders, and the sender's.
    const recent = await simulateRules(admin, [], settings, 100);
    const shipsTo = [settings.sender.countryCode, ...recent.flatMap((order) => (order.country ? [order.country] : []))];
    const conflicts = await auditShopRules(parsed.rules, shipsTo, (country) => client.carrierServices(country));
    return { rows, revision, conflicts: conflicts.map((conflict) => ({ ...conflict, position: parsed.rules.findIndex((rule) => rule.id === conflict.ruleId) + 1 })) };
  }
  if (intent === "save") {
    if (!configured) return { rows, revision, saved: false };
    await saveShippingRules(db, shop, parsed.rules);
    return { rows: parsed.rules.map(rowFromRule), revision, saved: true };
  }
  throw new Response("Unknown action", { status: 400 });
}

const WHEN_FIELDS = ["checkoutRate", "countries", "postcodePrefixes", "minWeightGrams", "maxWeightGrams", "minOrderValue", "maxOrderValue", "tags"] as const;
const THEN_FIELDS = ["carrierName", "serviceName", "box", "insuredValue"] as const;

export default function ShippingRulesPage() {
  const loaded = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const locale = useContext(LocaleContext);
  const rows = result?.rows ?? loaded.rows;
  const revision = result?.revision ?? "loaded";
  const busy = navigation.state !== "idle";
  // Which button sent the form (Polaris buttons carry no name/value): set on click, before the submit event.
  const intentRef = useRef<HTMLInputElement>(null);
  const setIntent = (intent: string) => {
    if (intentRef.current) intentRef.current.value = intent;
  };
  const errorOf = (position: number, field: string) => result?.errors?.[`rules.${position}.${field}`]?.[locale];
  const helpOf = (field: string) =>
    field === "checkoutRate" ? t("rules.help.checkoutRate") : field === "box" ? t("rules.help.box") : ["countries", "postcodePrefixes", "tags"].includes(field) ? t("rules.help.list") : undefined;
  const input = (position: number, row: RuleRow, field: (typeof RULE_FIELDS)[number]) => (
    <RuleInput
      key={`${revision}-${position}-${field}`}
      label={ruleFieldName(field, locale)}
      name={`rules.${position}.${field}`}
      initial={row[field]}
      error={errorOf(position, field)}
      helpText={helpOf(field)}
    />
  );
  return (
    <Page title={t("rules.title")}>
      <Form method="post">
        <input key={revision} ref={intentRef} type="hidden" name="intent" defaultValue="save" />
        <Layout>
          <Layout.Section>
            <BlockStack gap="400">
              <Text as="p">{t("rules.intro")}</Text>
              {!loaded.configured ? <Banner tone="warning">{t("rules.notConfigured")}</Banner> : null}
              {result?.saved === true ? <Banner tone="success">{t("rules.saved")}</Banner> : null}
              {result?.errors ? <Banner tone="critical">{t("rules.notSaved")}</Banner> : null}
              {result?.checkFailed ? <Banner tone="warning">{t("rules.checkUnavailable")}</Banner> : null}
              {result?.conflicts ? (
                result.conflicts.length === 0 ? (
                  <Banner tone="success">{t("rules.noConflict")}</Banner>
                ) : (
                  <Banner tone="critical">
                    <BlockStack gap="100">
                      {result.conflicts.map((conflict) => (
                        <Text as="p" key={`${conflict.ruleId}-${conflict.country}`}>
                          {t("rules.conflict", { position: conflict.position, name: conflict.ruleName, carrier: conflict.carrier.carrierName, service: conflict.carrier.serviceName, country: conflict.country })}
                        </Text>
                      ))}
                    </BlockStack>
                  </Banner>
                )
              ) : null}
              {rows.length === 0 ? <Text as="p" tone="subdued">{t("rules.empty")}</Text> : null}
              {rows.map((row, position) => (
                <Card key={`${revision}-${row.id}`}>
                  <BlockStack gap="300">
                    <InlineStack align="space-between" blockAlign="center">
                      <Text as="h2" variant="headingMd">
                        {t("rules.rule", { position: position + 1 })}
                      </Text>
                      <InlineStack gap="200">
                        <Button submit onClick={() => setIntent(`up:${position}`)} disabled={position === 0 || busy}>
                          {t("rules.up")}
                        </Button>
                        <Button submit onClick={() => setIntent(`down:${position}`)} disabled={position === rows.length - 1 || busy}>
                          {t("rules.down")}
                        </Button>
                        <Button submit onClick={() => setIntent(`remove:${position}`)} tone="critical" disabled={busy}>
                          {t("rules.remove")}
                        </Button>
                      </InlineStack>
                    </InlineStack>
                    <input type="hidden" name={`rules.${position}.id`} value={row.id} />
                    {input(position, row, "name")}
                    <Text as="h3" variant="headingSm">
                      {t("rules.when")}
                    </Text>
                    <FormLayout>
                      <FormLayout.Group>{WHEN_FIELDS.slice(0, 3).map((field) => input(position, row, field))}</FormLayout.Group>
                      <FormLayout.Group>{WHEN_FIELDS.slice(3).map((field) => input(position, row, field))}</FormLayout.Group>
                    </FormLayout>
                    <Text as="h3" variant="headingSm">
                      {t("rules.then")}
                    </Text>
                    <FormLayout>
                      <FormLayout.Group>{THEN_FIELDS.map((field) => input(position, row, field))}</FormLayout.Group>
                    </FormLayout>
                  </BlockStack>
                </Card>
              ))}
              <Text as="p" tone="subdued">
                {t("rules.lastRule")}
              </Text>
              <InlineStack gap="200">
                <Button submit onClick={() => setIntent("add")} disabled={busy || rows.length >= 50}>
                  {t("rules.add")}
                </Button>
                <Button submit onClick={() => setIntent("simulate")} disabled={busy}>
                  {t("rules.simulate")}
                </Button>
                <Button submit onClick={() => setIntent("check")} disabled={busy}>
                  {t("rules.check")}
                </Button>
                <Button submit onClick={() => setIntent("save")} variant="primary" disabled={busy || !loaded.configured}>
                  {t("rules.save")}
                </Button>
              </InlineStack>
              {result?.simulation ? <Simulation orders={result.simulation} /> : null}
            </BlockStack>
          </Layout.Section>
        </Layout>
      </Form>
    </Page>
  );
}

/** A text field of a rule row: starts from the row's value, reset when the rows come back from the server. */
function RuleInput(props: { label: string; name: string; initial: string; error?: string; helpText?: string }) {
  const [value, setValue] = useState(props.initial);
  return <TextField label={props.label} name={props.name} value={value} onChange={setValue} error={props.error} helpText={props.helpText} autoComplete="off" />;
}

function Simulation({ orders }: { orders: SimulatedOrder[] }) {
  const t = useT();
  const zoneName = (zone: string) => t(`orders.zone.${zone}` as "orders.zone.eu");
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {t("rules.sim.title", { count: orders.length })}
        </Text>
        <Text as="p" tone="subdued">
          {t("rules.sim.unsaved")}
        </Text>
        <DataTable
          columnContentTypes={["text", "text", "text", "numeric", "text", "text"]}
          headings={[t("rules.sim.order"), t("rules.sim.rate"), t("rules.sim.destination"), t("rules.sim.weight"), t("rules.sim.rule"), t("rules.sim.picks")]}
          rows={orders.map((order) => [
            order.orderName,
            order.checkoutRate ?? "—",
            order.country ?? "—",
            `${order.weightGrams} g`,
            order.source === "rule"
              ? t("rules.sim.ruleName", { position: order.rulePosition ?? 0, name: order.ruleName ?? "" })
              : order.source === "zone_default"
                ? t("rules.sim.zoneDefault", { zone: zoneName(order.zone ?? "world") })
                : t("rules.sim.noAddress"),
            order.carrierName ? `${order.carrierName} · ${order.serviceLabel ?? order.serviceName}${order.box ? ` · ${order.box}` : ""}` : "—",
          ])}
        />
      </BlockStack>
    </Card>
  );
}

export function ErrorBoundary() {
  return <AppErrorPage />;
}
