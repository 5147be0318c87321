/**
 * `shopify app dev` can start the app (issue 16 item 2): shopify.web.toml declares the web process, and the
 * environment the CLI gives it (tunnel URL as HOST, no .env) becomes a configuration the app accepts.
 */
import { existsSync, readFileSync } from "node:fs";
import toml from "toml";
import { describe, expect, it } from "vitest";
import { applyShopifyCliEnv } from "../dev/cli-env";
import { parseConfig } from "../app/config.server";

const root = new URL("../", import.meta.url);

describe("shopify.web.toml", () => {
  const web = toml.parse(readFileSync(new URL("shopify.web.toml", root), "utf8")) as {
    roles: string[];
    webhooks_path: string;
    commands: { predev?: string; dev: string };
  };

  it("serves the admin pages and the API from one process", () => {
    expect(web.roles.sort()).toEqual(["backend", "frontend"]);
  });

  it("generates the Prisma client, applies the migrations, then starts Remix's Vite dev server", () => {
    expect(web.commands.predev).toBe("npx prisma generate");
    // The CLI splits on && and runs each step without a shell: plain commands only, in this order.
    const steps = web.commands.dev.split("&&").map((step) => step.trim());
    expect(steps).toEqual(["npx prisma migrate deploy", "npx remix vite:dev"]);
    for (const step of [...steps, web.commands.predev!]) expect(step).not.toMatch(/[|;<>$`'"]/);
    expect(existsSync(new URL("node_modules/.bin/remix", root))).toBe(true);
  });

  it("points the CLI's test webhook at the app/uninstalled route", () => {
    expect(web.webhooks_path).toBe("/webhooks/app/uninstalled");
    expect(existsSync(new URL("app/routes/webhooks.app.uninstalled.tsx", root))).toBe(true);
  });
});

describe("the environment under shopify app dev", () => {
  const cliEnv = () => ({
    // What Shopify CLI 3.94 passes to the web process (and the PORT it picked).
    SHOPIFY_API_KEY: "0123456789abcdef",
    SHOPIFY_API_SECRET: "shpss_secret",
    HOST: "https://tender-cats-dance.trycloudflare.com",
    APP_URL: "https://tender-cats-dance.trycloudflare.com",
    SCOPES: "read_orders",
    NODE_ENV: "development",
    PORT: "51234",
  });
  const dotEnv = { ENCRYPTION_KEY: "ab".repeat(32), SHOPIFY_APP_URL: "https://your-tunnel.example.com", DATABASE_URL: "file:./prisma/dev.sqlite" };
  const fakeLoad = (env: Record<string, string | undefined>) => () => {
    for (const [key, value] of Object.entries(dotEnv)) if (env[key] === undefined) env[key] = value;
  };

  it("is a valid configuration: the tunnel URL as SHOPIFY_APP_URL, the secrets from .env", () => {
    const env: Record<string, string | undefined> = cliEnv();
    expect(() => parseConfig(env)).toThrow(/SHOPIFY_APP_URL|ENCRYPTION_KEY/);
    applyShopifyCliEnv(env, fakeLoad(env));
    expect(env.HOST).toBeUndefined();
    const config = parseConfig(env);
    expect(config.SHOPIFY_APP_URL).toBe("https://tender-cats-dance.trycloudflare.com");
    expect(config.PORT).toBe(51234);
    expect(config.ENCRYPTION_KEY).toHaveLength(32);
  });

  it("leaves a host without the CLI alone, and the demo never reads .env", () => {
    const plain: Record<string, string | undefined> = { HOST: "my-laptop" };
    applyShopifyCliEnv(plain, () => undefined);
    expect(plain).toEqual({ HOST: "my-laptop" });
    const demo: Record<string, string | undefined> = { ETIQUETTE_DEMO: "1" };
    applyShopifyCliEnv(demo, () => {
      throw new Error("the demo must not read .env");
    });
  });
});
