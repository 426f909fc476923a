// The QR code of the authenticator-app enrolment, rendered on the server as SVG:
// no script and no image request, and it scales crisply. The SVG holds only path data (the
// otpauth URI is encoded in the modules, never written as text).
import QRCode from "qrcode";

export async function totpQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#0f172a", light: "#ffffff" } });
}
