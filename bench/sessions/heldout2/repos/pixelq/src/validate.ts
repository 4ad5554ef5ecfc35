export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;

export type Format = "jpeg" | "png" | "webp" | "gif";

export class UploadError extends Error {
  constructor(message: string, readonly code: "too_large" | "unsupported" | "empty") {
    super(message);
  }
}

export interface Upload {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

export function detectFormat(upload: Upload): Format {
  const ext = upload.filename.split(".").pop()?.toLowerCase();
  switch (ext) {
    case "jpg":
    case "jpeg":
      return "jpeg";
    case "png":
      return "png";
    case "webp":
      return "webp";
    case "gif":
      return "gif";
    default:
      throw new UploadError(`unsupported file type: ${upload.filename}`, "unsupported");
  }
}

export function validateUpload(upload: Upload): Format {
  if (upload.bytes.length === 0) throw new UploadError("empty upload", "empty");
  if (upload.bytes.length > MAX_UPLOAD_BYTES) {
    throw new UploadError(`upload is ${upload.bytes.length} bytes, the limit is ${MAX_UPLOAD_BYTES}`, "too_large");
  }
  return detectFormat(upload);
}
