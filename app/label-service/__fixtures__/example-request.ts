/**
 * The public guide's example label request (values from NOTES.md) with a recipient of ours in Germany. The guide's
 * DHL service "n" is domestic (France), so a German destination needs another service from the lookup; use
 * {@link guideExampleLabelRequest} for the guide's request as published, sent within France.
 */
import type { LabelRequest } from "../contract";

export function exampleLabelRequest(overrides: Partial<LabelRequest> = {}): LabelRequest {
  return {
    weight: "3000",
    width: "44",
    height: "26",
    length: "22",
    carrier_name: "Dhl",
    carrier_service_name: "n",
    custom_reference: "20201218-013",
    description: "Books",
    cn23_data: {
      category: "3",
      shipping_price: "10,26",
      products: [
        { unit_price: "59,90", quantity: 1, description: "Book", weight: "1000", country_code: "FR", currency_code: "EUR" },
        { unit_price: "13,95", quantity: 1, description: "Book", weight: "1000", country_code: "FR", currency_code: "EUR" },
      ],
    },
    sender: {
      lastname: "Martin",
      firstname: "Claire",
      address_line1: "12 rue de la Paix",
      address_line2: "",
      country: "FR",
      city: "Paris",
      zip: "75002",
      phone1: "+33612345678",
      email: "expedition@librairie.example",
      company_name: "Librairie Martin",
      labelType: "PDF_A4_300dpi",
    },
    recipient: {
      lastname: "Schmidt",
      firstname: "Jonas",
      address_line1: "Friedrichstraße 43",
      country: "DE",
      city: "Berlin",
      zip: "10117",
      email: "jonas.schmidt@example.de",
    },
    ...overrides,
  };
}

/**
 * The guide's example exactly as published (Dhl, service "n", custom_reference "20201218-013", CN23 category 3 with
 * two books at "59,90" and "13,95", shipping "10,26", sender with an empty second line), to a French recipient: "n"
 * is DHL Express Domestic, valid for FR/MC only. Like the guide's recipient, ours has no phone and no second line.
 */
export function guideExampleLabelRequest(): LabelRequest {
  return exampleLabelRequest({
    recipient: {
      lastname: "Bernard",
      firstname: "Zoé",
      address_line1: "5 avenue Foch",
      country: "FR",
      city: "Lyon",
      zip: "69006",
      email: "zoe.bernard@example.fr",
    },
  });
}
