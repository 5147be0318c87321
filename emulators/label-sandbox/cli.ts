/** `npm run sandbox`: the label sandbox on LABEL_SANDBOX_PORT (default 4010). */
import { DEMO_ACCOUNT, startLabelSandbox } from "./server";

const port = Number(process.env.LABEL_SANDBOX_PORT ?? 4010);
const faults = process.env.LABEL_SANDBOX_FAULTS ? (JSON.parse(process.env.LABEL_SANDBOX_FAULTS) as object) : undefined;
const sandbox = await startLabelSandbox({
  port,
  host: process.env.LABEL_SANDBOX_HOST ?? "127.0.0.1",
  dataFile: process.env.LABEL_SANDBOX_DATA,
  tokenLifetimeSeconds: process.env.LABEL_SANDBOX_TOKEN_LIFETIME ? Number(process.env.LABEL_SANDBOX_TOKEN_LIFETIME) : undefined,
  faults,
});
console.log(`Label sandbox on ${sandbox.url}`);
console.log(`Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);
console.log(`Faults: POST ${sandbox.url}/__admin/faults   Labels bought: GET ${sandbox.url}/__admin/labels`);
const stop = () => void sandbox.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
