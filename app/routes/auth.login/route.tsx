import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Button, Card, FormLayout, Page, Text, TextField } from "@shopify/polaris";
import polarisStylesUrl from "@shopify/polaris/build/esm/styles.css?url";
import polarisEn from "@shopify/polaris/locales/en.json";
import { useState } from "react";
import { readForm } from "../../http/form.server";
import { login } from "../../shopify.server";

export const links = () => [{ rel: "stylesheet", href: polarisStylesUrl }];

type LoginErrors = { shop?: string };

function messageFor(errors: unknown): LoginErrors {
  const shopError = (errors as { shop?: string } | undefined)?.shop;
  if (shopError === "MISSING_SHOP") return { shop: "Enter your shop domain to log in." };
  if (shopError === "INVALID_SHOP") return { shop: "Enter a valid shop domain, like my-shop.myshopify.com." };
  return {};
}

export async function loader({ request }: LoaderFunctionArgs) {
  return { errors: messageFor(await login(request)) };
}

export async function action({ request }: ActionFunctionArgs) {
  // Same body rules as every action (400/413 with a sentence, never a 500); the library then reads the original.
  await readForm(request.clone());
  return { errors: messageFor(await login(request)) };
}

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [shop, setShop] = useState("");
  const errors = actionData?.errors ?? loaderData.errors;
  return (
    <PolarisAppProvider i18n={polarisEn}>
      <Page narrowWidth>
        <Card>
          <Form method="post">
            <FormLayout>
              <Text variant="headingMd" as="h2">
                Log in to Etiquette
              </Text>
              <TextField
                type="text"
                name="shop"
                label="Shop domain"
                helpText="example.myshopify.com"
                value={shop}
                onChange={setShop}
                autoComplete="on"
                error={errors.shop}
              />
              <Button submit>Log in</Button>
            </FormLayout>
          </Form>
        </Card>
      </Page>
    </PolarisAppProvider>
  );
}
