/**
 * `npm run label:preview -- --order <file.json> [--settings <file.json>] [--box <name>] [--reference <ref>]
 *  [--carrier <name> --service <name>]`
 * Reads an order in the shape of ORDER_FOR_LABEL_QUERY's `order` (or the whole `{data: {order}}` response) and prints
 * the label service's request JSON. Blocking problems: prints them as JSON on stdout and exits 2. Warnings go to
 * stderr. Bad input (unreadable file, wrong shape): a message on stderr and exit 1.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { z } from "zod";
import { defaultShippingSettings, mapOrderToLabelRequest, shippingSettingsSchema } from "../app/shipping";
import { orderForLabelSchema } from "../app/shopify/operations/order-for-label";

export interface PreviewResult {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${what} ${path}: ${(error as Error).message}`);
  }
}

export function preview(argv: string[]): PreviewResult {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        order: { type: "string" },
        settings: { type: "string" },
        box: { type: "string" },
        reference: { type: "string", default: "20261122-001" },
        carrier: { type: "string" },
        service: { type: "string" },
      },
      strict: true,
    });
    if (!values.order) throw new Error("--order <file.json> is required");
    const raw = readJson(values.order, "order") as { data?: { order?: unknown }; order?: unknown };
    const candidate = raw?.data?.order ?? raw?.order ?? raw;
    const order = orderForLabelSchema.safeParse(candidate);
    if (!order.success) throw new Error(`the order does not have the shape of the OrderForLabel query:\n${z.prettifyError(order.error)}`);
    const settings = values.settings ? shippingSettingsSchema.parse(readJson(values.settings, "settings")) : defaultShippingSettings;
    if ((values.carrier && !values.service) || (!values.carrier && values.service)) throw new Error("--carrier and --service go together");
    const result = mapOrderToLabelRequest({
      order: order.data,
      settings,
      boxName: values.box,
      customReference: values.reference!,
      carrier: values.carrier && values.service ? { carrierName: values.carrier, serviceName: values.service } : undefined,
    });
    const warnings = result.problems.filter((problem) => problem.severity === "warning");
    const stderr = warnings.map((problem) => `warning ${problem.code} (${problem.path}): ${problem.message.en} ${problem.fix.en}`).join("\n");
    if (!result.request) {
      return { code: 2, stdout: `${JSON.stringify(result.problems, null, 2)}\n`, stderr };
    }
    return { code: 0, stdout: `${JSON.stringify(result.request, null, 2)}\n`, stderr };
  } catch (error) {
    return { code: 1, stdout: "", stderr: `label:preview: ${(error as Error).message}` };
  }
}

const isMain = process.argv[1]?.endsWith("label-preview.ts");
if (isMain) {
  const result = preview(process.argv.slice(2));
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(`${result.stderr}\n`);
  process.exit(result.code);
}
