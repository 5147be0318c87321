/**
 * The demo's admin host (dev only, like the emulators; answered only in demo mode, which config.server.ts refuses in
 * production): a page that plays the Shopify admin's part around one built admin extension, so a person or a browser
 * test can run the extensions against the demo without a store.
 *
 *   /dev/admin-host                                  the list of extensions, with example links
 *   /dev/admin-host?extension=<handle>&ids=1,2&locale=fr   the admin's frame around the extension's modal
 *   /dev/admin-host/frame?…                          the modal: the built bundle with a `shopify` global
 *   /dev/admin-host/bundle/<handle>.js               the bundle the CLI built (extensions/<dir>/dist)
 *   /dev/admin-host/graphql                          `shopify.query` (the admin's direct API) for the demo shop
 *
 * The `shopify` global gives what the admin gives: the selected ids (GIDs), the target, i18n from the extension's own
 * locale files (with {{placeholders}} and one/other plurals), a session token for the demo shop (a real HS256 JWT
 * signed with the app's secret, added as `Authorization: Bearer` to the extension's relative fetches, as the admin
 * does), query, and close. The `s-*` elements get small stand-ins (styles, a shadow root for the modal's heading and
 * action slots, the print button) so the extension reads and clicks like in the admin.
 */
import { createHmac, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config.server";
import { DEMO_SHOP_DOMAIN } from "./seed-demo-shop.server";

const EXTENSIONS_DIR = path.resolve(process.cwd(), "extensions");

export interface HostedExtension {
  handle: string;
  directory: string;
  target: string;
  shouldRender: boolean;
}

/** True only in demo mode (never in production: config refuses demo mode there). */
export function adminHostEnabled(): boolean {
  const env = config();
  return env.ETIQUETTE_DEMO && env.NODE_ENV !== "production";
}

/** The extensions under `dir` (extensions/ by default; tests pass a copy). */
export function hostedExtensions(dir = EXTENSIONS_DIR): HostedExtension[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "shopify.extension.toml")))
    .sort()
    .map((name) => {
      const directory = path.join(dir, name);
      return { directory, ...readExtensionToml(readFileSync(path.join(directory, "shopify.extension.toml"), "utf8")) };
    });
}

/**
 * The handle, first target and should-render of an extension TOML, read line by line: the few keys the CLI's own
 * schema requires here (no TOML library in the app's runtime dependencies; the full file is validated by the CLI).
 */
export function readExtensionToml(text: string): Omit<HostedExtension, "directory"> {
  const value = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m").exec(text)?.[1] ?? "";
  return { handle: value("handle"), target: value("target"), shouldRender: /^\s*\[extensions\.targeting\.should_render\]/m.test(text) };
}

function findExtension(handle: string | null, dir: string): HostedExtension | undefined {
  return hostedExtensions(dir).find((extension) => extension.handle === handle);
}

/** The extension's translations for the admin's language (its default file when it has none for that language). */
function translations(extension: HostedExtension, locale: string): Record<string, unknown> {
  const localized = path.join(extension.directory, "locales", `${locale}.json`);
  const fallback = path.join(extension.directory, "locales", "en.default.json");
  return JSON.parse(readFileSync(existsSync(localized) ? localized : fallback, "utf8")) as Record<string, unknown>;
}

function orderGids(ids: string | null): string[] {
  return (ids ?? "")
    .split(",")
    .map((id) => id.trim())
    .filter((id) => /^[0-9]{1,20}$/.test(id) || /^gid:\/\/shopify\/Order\/[0-9]{1,20}$/.test(id))
    .map((id) => (id.startsWith("gid://") ? id : `gid://shopify/Order/${id}`));
}

/** A session token for the demo shop, signed like the admin's (HS256 with the app's API secret), valid one minute. */
export function demoSessionToken(now = Date.now()): string {
  const env = config();
  const seconds = Math.floor(now / 1000);
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const payload = {
    iss: `https://${DEMO_SHOP_DOMAIN}/admin`,
    dest: `https://${DEMO_SHOP_DOMAIN}`,
    aud: env.SHOPIFY_API_KEY,
    sub: "1",
    exp: seconds + 60,
    nbf: seconds,
    iat: seconds,
    jti: randomUUID(),
    sid: randomUUID(),
  };
  const unsigned = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(payload)}`;
  return `${unsigned}.${createHmac("sha256", env.SHOPIFY_API_SECRET).update(unsigned).digest("base64url")}`;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

const NOT_BUILT = (handle: string) =>
  `<p>The extension <code>${escapeHtml(handle)}</code> is not built yet. Run <code>npm run extensions:build</code>, then reload this page.</p>`;

/** The admin's page: the chrome around the modal, and the index when no extension is named. */
export function hostPage(url: URL, dir = EXTENSIONS_DIR): Response {
  const handle = url.searchParams.get("extension");
  const extension = findExtension(handle, dir);
  const locale = url.searchParams.get("locale") === "fr" ? "fr" : "en";
  const ids = url.searchParams.get("ids") ?? "";
  if (!extension) {
    const links = hostedExtensions(dir)
      .map((entry) => `<li><a href="?extension=${encodeURIComponent(entry.handle)}&ids=${encodeURIComponent(ids)}&locale=${locale}">${escapeHtml(entry.handle)}</a> <small>${escapeHtml(entry.target)}</small></li>`)
      .join("");
    return html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo admin host</title><link rel="icon" href="data:,"><style>${HOST_CSS}</style></head><body><main>
<h1>Demo admin host</h1><p>Runs each admin extension's built bundle against the demo, as the Shopify admin would. Add <code>&amp;ids=7100001001,7100001002</code> (order ids) and <code>&amp;locale=fr</code>.</p>
<ul>${links}</ul></main></body></html>`,
      handle ? 404 : 200,
    );
  }
  const name = String(translations(extension, locale).name ?? extension.handle);
  const frame = `/dev/admin-host/frame?${new URLSearchParams({ extension: extension.handle, ids, locale })}`;
  return html(`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(name)} · demo admin</title><link rel="icon" href="data:,"><style>${HOST_CSS}</style></head>
<body><main>
<p class="crumbs">Demo admin · <code>${escapeHtml(extension.target)}</code> · ${escapeHtml(locale)} · orders: ${escapeHtml(orderGids(ids).map((id) => id.split("/").pop()).join(", ") || "none")}</p>
<div class="modal-frame"><iframe title="${escapeHtml(name)}" src="${escapeHtml(frame)}"></iframe></div>
<p id="host-status" role="status"></p>
</main>
<script>
addEventListener("message", (event) => {
  if (event.origin !== location.origin || !event.data || event.data.source !== "etiquette-admin-host") return;
  const status = document.getElementById("host-status");
  if (event.data.type === "close") { status.textContent = "The extension closed its window."; document.querySelector(".modal-frame").hidden = true; }
  if (event.data.type === "hidden") status.textContent = "The admin would not show this action here (its should-render answered display: false).";
  if (event.data.type === "navigate" && typeof event.data.path === "string" && event.data.path.startsWith("/")) location.assign(event.data.path);
});
</script></body></html>`);
}

/** The modal: the `shopify` global, the element stand-ins, then the extension's bundle(s). */
export function framePage(url: URL, dir = EXTENSIONS_DIR): Response {
  const extension = findExtension(url.searchParams.get("extension"), dir);
  if (!extension) return html("<p>Unknown extension.</p>", 404);
  const bundle = path.join(extension.directory, "dist", `${extension.handle}.js`);
  if (!existsSync(bundle)) return html(NOT_BUILT(extension.handle), 503);
  const locale = url.searchParams.get("locale") === "fr" ? "fr" : "en";
  const conditions = extension.shouldRender && existsSync(path.join(extension.directory, "dist", `${extension.handle}-conditions.js`));
  const host = {
    target: extension.target,
    locale,
    selected: orderGids(url.searchParams.get("ids")).map((id) => ({ id })),
    translations: translations(extension, locale),
    token: demoSessionToken(),
    printLabel: locale === "fr" ? "Imprimer" : "Print",
  };
  const scripts = [conditions ? `${extension.handle}-conditions.js` : null, `${extension.handle}.js`]
    .filter(Boolean)
    .map((file) => `<script src="/dev/admin-host/bundle/${encodeURIComponent(String(file))}"></script>`)
    .join("\n");
  return html(`<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><link rel="icon" href="data:,"><style>${ELEMENT_CSS}</style>
<script>window.__ADMIN_HOST__ = ${scriptJson(host)};</script>
<script>${HOST_RUNTIME}</script>
</head><body>
${scripts}
<script>window.__startAdminHost__();</script>
</body></html>`);
}

/** A built bundle, by file name (`<handle>.js` or `<handle>-conditions.js`). */
export function bundleFile(file: string, dir = EXTENSIONS_DIR): Response {
  const match = /^([a-zA-Z0-9-]{1,50}?)(-conditions)?\.js$/.exec(file);
  const extension = match ? findExtension(match[1]!, dir) : undefined;
  const full = extension ? path.join(extension.directory, "dist", file) : "";
  if (!extension || !existsSync(full)) return new Response("Not built: run npm run extensions:build", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(readFileSync(full), { headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" } });
}

const HOST_CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f1f1f1;color:#303030}main{max-width:760px;margin:24px auto;padding:0 16px}
.crumbs{color:#616161}.modal-frame{background:#fff;border-radius:12px;box-shadow:0 4px 24px rgba(0,0,0,.15);overflow:hidden}
iframe{width:100%;height:640px;border:0;display:block}code{background:#e3e3e3;padding:1px 4px;border-radius:4px}`;

/** Readable stand-ins for the Polaris web components the extensions use. */
const ELEMENT_CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#303030}
s-admin-action,s-admin-print-action,s-stack,s-section,s-banner,s-box,s-paragraph,s-heading,s-unordered-list,s-ordered-list,s-checkbox,s-select,s-divider{display:block}
s-stack{display:flex;flex-direction:column;gap:12px}s-stack[direction=inline]{flex-direction:row;flex-wrap:wrap}s-stack[gap=none]{gap:0}s-stack[gap^=small]{gap:4px}
s-banner{border:1px solid #91d0ff;background:#eaf4ff;border-radius:8px;padding:10px 12px}
s-banner[tone=critical]{background:#fee9e8;border-color:#fd8a80}s-banner[tone=warning]{background:#fff5d6;border-color:#ffd04d}s-banner[tone=success]{background:#e0f8ee;border-color:#7be0b0}
s-banner[heading]::before,s-section[heading]::before{content:attr(heading);display:block;font-weight:650;margin-bottom:4px}
s-heading{font-weight:650;margin-top:6px}s-text[type=strong]{font-weight:650}s-text[color=subdued]{color:#616161}
s-unordered-list{padding-left:20px}s-list-item{display:list-item;list-style:disc}
s-button{display:inline-block;padding:6px 14px;border:1px solid #8a8a8a;border-radius:8px;background:#fff;cursor:pointer;font-weight:550;user-select:none}
s-button[variant=primary]{background:#303030;border-color:#303030;color:#fff}s-button[disabled]{opacity:.45;cursor:not-allowed}
s-button[loading]::after{content:" …"}s-link{color:#005bd3;text-decoration:underline;cursor:pointer}
s-spinner::before{content:"…";font-size:20px}s-badge{display:inline-block;padding:0 8px;border-radius:8px;background:#e3e3e3}`;

/**
 * Runs in the frame before the bundle: the `shopify` global (the admin's part) and the element stand-ins. Plain
 * browser JavaScript, kept here so the demo needs no build step of its own.
 */
const HOST_RUNTIME = `(() => {
  const host = window.__ADMIN_HOST__;
  const post = (message) => parent.postMessage({ source: "etiquette-admin-host", ...message }, location.origin);
  const lookup = (key) => key.split(".").reduce((node, part) => (node && typeof node === "object" ? node[part] : undefined), host.translations);
  const plural = new Intl.PluralRules(host.locale);
  function translate(key, options = {}) {
    let value = lookup(key);
    if (value && typeof value === "object" && typeof options.count === "number") value = value[plural.select(options.count)] ?? value.other;
    if (typeof value !== "string") return key;
    return value.replace(/{{\\s*(\\w+)\\s*}}/g, (whole, name) => (name in options ? String(options[name]) : whole));
  }
  const callbacks = {};
  const nativeFetch = window.fetch.bind(window);
  window.fetch = (input, init = {}) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    if (url.origin !== location.origin) return nativeFetch(input, init);
    const headers = new Headers(init.headers || {});
    headers.set("Authorization", "Bearer " + host.token);
    return nativeFetch(input, { ...init, headers });
  };
  window.shopify = {
    extension: { target: host.target },
    data: { selected: host.selected },
    i18n: {
      translate,
      formatNumber: (number, options) => new Intl.NumberFormat(host.locale, options).format(number),
      formatCurrency: (number, options) => new Intl.NumberFormat(host.locale, { style: "currency", ...options }).format(number),
      formatDate: (date, options) => new Intl.DateTimeFormat(host.locale, options).format(date),
    },
    auth: { idToken: async () => host.token },
    close: () => post({ type: "close" }),
    query: async (query, options = {}) => {
      const response = await nativeFetch("/dev/admin-host/graphql", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query, variables: options.variables || {} }) });
      return response.json();
    },
    extend: (target, callback) => { callbacks[target] = callback; },
  };
  window.__startAdminHost__ = async () => {
    const conditions = callbacks[host.target.replace(/\\.render$/, ".should-render")];
    if (conditions) {
      const { display } = await conditions();
      if (!display) { post({ type: "hidden" }); return; }
    }
    await callbacks[host.target]();
  };

  function openHref(element) {
    const href = element.getAttribute("href");
    if (!href || element.hasAttribute("disabled")) return;
    if (href.startsWith("app:")) post({ type: "navigate", path: href.slice(4) });
    else window.open(href, element.getAttribute("target") || "_blank");
  }
  class Clickable extends HTMLElement {
    static observedAttributes = ["disabled"];
    connectedCallback() {
      this.setAttribute("role", this.localName === "s-link" ? "link" : "button");
      if (!this.hasAttribute("tabindex")) this.tabIndex = 0;
      this.addEventListener("click", (event) => { if (this.hasAttribute("disabled")) { event.stopImmediatePropagation(); return; } openHref(this); });
      this.addEventListener("keydown", (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); this.click(); } });
      this.attributeChangedCallback();
    }
    attributeChangedCallback() { this.setAttribute("aria-disabled", String(this.hasAttribute("disabled"))); }
  }
  customElements.define("s-button", class extends Clickable {});
  customElements.define("s-link", class extends Clickable {});

  const MODAL_CSS = ":host{display:flex;flex-direction:column;min-height:100vh}header{padding:14px 16px;border-bottom:1px solid #e3e3e3;font-weight:650;font-size:16px}.body{padding:16px;flex:1}footer{display:flex;justify-content:flex-end;gap:8px;padding:12px 16px;border-top:1px solid #e3e3e3}button{padding:6px 14px;border-radius:8px;border:1px solid #303030;background:#303030;color:#fff;font:inherit;font-weight:550;cursor:pointer}button:disabled{opacity:.45;cursor:not-allowed}";
  customElements.define("s-admin-action", class extends HTMLElement {
    static observedAttributes = ["heading", "loading"];
    connectedCallback() {
      if (this.shadowRoot) return;
      this.attachShadow({ mode: "open" }).innerHTML = "<style>" + MODAL_CSS + "</style><header role=heading aria-level=1></header><div class=body><slot></slot></div><footer><slot name=secondary-actions></slot><slot name=primary-action></slot></footer>";
      this.attributeChangedCallback();
    }
    attributeChangedCallback() {
      const header = this.shadowRoot && this.shadowRoot.querySelector("header");
      if (header) header.textContent = (this.getAttribute("heading") || "") + (this.hasAttribute("loading") && this.getAttribute("loading") !== "false" ? " …" : "");
    }
  });
  customElements.define("s-admin-print-action", class extends HTMLElement {
    static observedAttributes = ["src"];
    connectedCallback() {
      if (this.shadowRoot) return;
      this.attachShadow({ mode: "open" }).innerHTML = "<style>" + MODAL_CSS + "</style><div class=body><slot></slot></div><footer><button type=button></button></footer>";
      const button = this.shadowRoot.querySelector("button");
      button.textContent = host.printLabel;
      button.addEventListener("click", () => { const src = this.getAttribute("src"); if (src) window.open(src, "_blank"); });
      this.attributeChangedCallback();
    }
    attributeChangedCallback() {
      const button = this.shadowRoot && this.shadowRoot.querySelector("button");
      if (button) button.disabled = !this.getAttribute("src");
    }
  });
  customElements.define("s-checkbox", class extends HTMLElement {
    static observedAttributes = ["label"];
    #checked = false;
    get checked() { return this.#checked; }
    set checked(value) { this.#checked = Boolean(value); const input = this.shadowRoot && this.shadowRoot.querySelector("input"); if (input) input.checked = this.#checked; }
    connectedCallback() {
      if (this.shadowRoot) return;
      this.attachShadow({ mode: "open" }).innerHTML = "<label style='display:flex;gap:8px;align-items:flex-start'><input type=checkbox><span></span></label>";
      const input = this.shadowRoot.querySelector("input");
      input.checked = this.#checked;
      input.addEventListener("change", () => { this.#checked = input.checked; this.dispatchEvent(new Event("change", { bubbles: true })); });
      this.attributeChangedCallback();
    }
    attributeChangedCallback() { const span = this.shadowRoot && this.shadowRoot.querySelector("span"); if (span) span.textContent = this.getAttribute("label") || ""; }
  });
  customElements.define("s-select", class extends HTMLElement {
    static observedAttributes = ["label"];
    #value = "";
    get value() { return this.#value; }
    set value(value) { this.#value = String(value); const select = this.shadowRoot && this.shadowRoot.querySelector("select"); if (select) select.value = this.#value; }
    connectedCallback() {
      if (this.shadowRoot) return;
      this.attachShadow({ mode: "open" }).innerHTML = "<label style='display:flex;flex-direction:column;gap:4px'><span></span><select></select></label><slot hidden></slot>";
      const select = this.shadowRoot.querySelector("select");
      select.addEventListener("change", () => { this.#value = select.value; this.dispatchEvent(new Event("change", { bubbles: true })); });
      const sync = () => {
        select.replaceChildren(...[...this.querySelectorAll("s-option")].map((option) => new Option(option.textContent, option.getAttribute("value") || "")));
        select.value = this.#value;
      };
      new MutationObserver(sync).observe(this, { childList: true, subtree: true, characterData: true });
      sync();
      this.attributeChangedCallback();
    }
    attributeChangedCallback() { const span = this.shadowRoot && this.shadowRoot.querySelector("span"); if (span) span.textContent = this.getAttribute("label") || ""; }
  });
})();`;
