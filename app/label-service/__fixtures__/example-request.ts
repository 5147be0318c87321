/** The public guide's example label request (values from NOTES.md); the recipient is ours (Germany). */
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
