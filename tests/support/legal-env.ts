// The operator's identity variables (app/lib/legal.ts), as an https deployment must set them.
/** A complete operator identity, as an https deployment must set it. */
export const LEGAL_ENV = {
  LEGAL_COMPANY_NAME: "Réseau Transmission SAS",
  LEGAL_FORM: "SAS",
  LEGAL_SHARE_CAPITAL: "10 000 €",
  LEGAL_RCS: "RCS Paris 912 345 678",
  LEGAL_SIRET: "912 345 678 00012",
  LEGAL_VAT_NUMBER: "FR12912345678",
  LEGAL_HEAD_OFFICE: "12 rue de la Paix, 75002 Paris",
  LEGAL_PUBLICATION_DIRECTOR: "Claire Fontaine",
  LEGAL_HOST_NAME: "OVH SAS",
  LEGAL_HOST_ADDRESS: "2 rue Kellermann, 59100 Roubaix",
  LEGAL_EMAIL_PROVIDER: "Brevo (Sendinblue SAS, Paris)",
  LEGAL_CONTACT_EMAIL: "contact@reseau.example.fr",
  LEGAL_PHONE: "01 23 45 67 89",
};
