// Uploaded images are untrusted (DESIGN §5): the type comes from the bytes, sharp decodes them
// and writes a fresh WebP, which drops EXIF/XMP/ICC metadata (no withMetadata), applies the EXIF
// orientation first and caps the dimensions.
import sharp from "sharp";
import { uploadErrors } from "./upload-body.server";
import { DEFAULT_MAX_UPLOAD_MB, detectImageType, MB, type ImageType } from "./upload-rules";

export type ImageLimits = {
  /** Size limit of the original file, in MB (spec §9: 5 by default). */
  maxMb?: number;
  maxWidth: number;
  maxHeight: number;
};

export type PreparedImage = { bytes: Buffer; contentType: "image/webp"; extension: "webp"; width: number; height: number; sourceType: ImageType };

// Decompression bombs: a small file may announce a huge canvas; refuse beyond ~40 megapixels.
export const MAX_INPUT_PIXELS = 40_000_000;

/** Checks size and type, then re-encodes to WebP within `maxWidth` × `maxHeight`. */
export async function prepareImage(input: Uint8Array, limits: ImageLimits): Promise<PreparedImage> {
  const maxMb = limits.maxMb ?? DEFAULT_MAX_UPLOAD_MB;
  if (input.byteLength > maxMb * MB) throw uploadErrors.tooLarge(maxMb);
  const sourceType = detectImageType(input);
  if (!sourceType) throw uploadErrors.unsupported();
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" });
    const meta = await image.metadata();
    // The decoder must agree with the magic bytes (sharp also reads SVG, GIF, TIFF…).
    if (meta.format !== sourceType) throw uploadErrors.unsupported();
    const { data, info } = await image
      .rotate()
      .resize({ width: limits.maxWidth, height: limits.maxHeight, fit: "inside", withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, contentType: "image/webp", extension: "webp", width: info.width, height: info.height, sourceType };
  } catch (error) {
    if (error instanceof Error && error.name === "UploadError") throw error;
    // Truncated or corrupt data behind a valid signature: not an image we can use.
    throw uploadErrors.unsupported();
  }
}
