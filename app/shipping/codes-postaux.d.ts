/** codes-postaux ships no types: the one function used, as its README documents it. */
declare module "codes-postaux" {
  export interface CodePostalEntry {
    codePostal: string;
    codeCommune: string;
    nomCommune: string;
    libelleAcheminement: string;
  }
  const codesPostaux: { find(postalCode: string | number): CodePostalEntry[] };
  export default codesPostaux;
}
