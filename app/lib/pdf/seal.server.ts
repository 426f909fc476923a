// The platform's electronic seal on a PDF: PAdES baseline B-T — a CMS detached
// signature (SubFilter ETSI.CAdES.detached) in the PDF, made with @signpdf and pkijs, carrying
// an RFC 3161 signature timestamp token as an unsigned attribute of its SignerInfo.
import { createHash } from "node:crypto";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import * as asn1js from "asn1js";
import { rgb, StandardFonts, type PDFDocument } from "pdf-lib";
import * as pkijs from "pkijs";
import { getEnv } from "~/lib/env.server";
import { drawableText } from "~/lib/untrusted/drawable-text";
import { getSealIdentity, type SealIdentity } from "./seal-identity.server";
import { sealMention } from "./seal-rules";
import { currentAuthority, timestampToken, type TimestampAuthority } from "./timestamp.server";

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  signatureTimeStampToken: "1.2.840.113549.1.9.16.2.14",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
};
// Room for the CMS: certificate chain, timestamp token and its authority's certificates.
const SIGNATURE_BYTES = 24_576;

const sha256 = (data: ArrayBuffer | Uint8Array) => new Uint8Array(createHash("sha256").update(data instanceof Uint8Array ? data : new Uint8Array(data)).digest());

/** Makes the CMS SignedData over the signed byte ranges, then asks the TSA for its timestamp. */
class PlatformSealer extends Signer {
  constructor(
    private readonly identity: SealIdentity,
    private readonly authority: TimestampAuthority,
  ) {
    super();
  }

  override async sign(content: Buffer): Promise<Buffer> {
    const [certificate, ...chain] = this.identity.certificates;
    if (!certificate) throw new Error("sealing identity without a certificate");
    // ESS signing-certificate-v2 (RFC 5035), required by PAdES: binds the signer's certificate.
    const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: sha256(certificate.toSchema().toBER()) })] });
    const signingCertificateV2 = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
    const signedData = new pkijs.SignedData({
      version: 1,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
              new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: sha256(content) })] }),
              new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
            ],
          }),
        }),
      ],
      certificates: [certificate, ...chain],
    });
    await signedData.sign(this.identity.privateKey, 0, "SHA-256");
    const signerInfo = signedData.signerInfos[0]!;
    const token = await timestampToken(new Uint8Array(signerInfo.signature.valueBlock.valueHexView), this.authority);
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [token.toSchema()] })],
    });
    const cms = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
    return Buffer.from(cms.toSchema().toBER());
  }
}

export type SealOptions = {
  /** The signature dictionary's /Reason, shown by PDF readers. */
  reason: string;
  signingTime: Date;
  identity?: SealIdentity;
  authority?: TimestampAuthority;
};

/**
 * Seals `doc` (consumed): the visible mention on its last page, then the signature. Throws
 * TimestampUnavailableError when no timestamp could be had — never an unsealed copy.
 */
export async function sealPdf(doc: PDFDocument, options: SealOptions): Promise<Uint8Array> {
  const env = getEnv();
  const identity = options.identity ?? (await getSealIdentity(env));
  const authority = options.authority ?? currentAuthority(env);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const charset = new Set(font.getCharacterSet());
  const pages = doc.getPages();
  const last = pages[pages.length - 1] ?? doc.addPage();
  const mention = drawableText(sealMention({ appName: env.APP_NAME, holder: identity.holder, test: identity.test }), (code) => charset.has(code));
  // Two lines at most, above the page footer.
  const size = 7;
  const width = last.getWidth() - 112;
  const words = mention.split(" ");
  const lines: string[] = [""];
  for (const word of words) {
    const candidate = lines[lines.length - 1] ? `${lines[lines.length - 1]} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) lines[lines.length - 1] = candidate;
    else lines.push(word);
  }
  lines.forEach((line, i) =>
    last.drawText(line, { x: 56, y: 44 - i * (size + 2), size, font, color: identity.test ? rgb(0.75, 0.1, 0.1) : rgb(0.35, 0.35, 0.35) }),
  );
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: options.reason,
    contactInfo: env.CONTACT_EMAIL,
    name: identity.holder,
    location: env.APP_URL,
    signingTime: options.signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: env.APP_NAME,
  });
  const unsigned = await doc.save({ useObjectStreams: false });
  const signed = await new SignPdf().sign(Buffer.from(unsigned), new PlatformSealer(identity, authority), options.signingTime);
  return new Uint8Array(signed);
}
