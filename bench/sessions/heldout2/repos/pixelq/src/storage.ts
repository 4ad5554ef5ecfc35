import { createHash } from "node:crypto";

export interface Storage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array>;
  url(key: string): string;
}

export interface S3Client {
  putObject(req: { Bucket: string; Key: string; Body: Uint8Array; ContentType: string; ContentMD5: string }): Promise<{ ETag?: string }>;
  getObject(req: { Bucket: string; Key: string }): Promise<{ Body: Uint8Array }>;
}

export class S3Storage implements Storage {
  constructor(private client: S3Client, private bucket: string, private publicBase: string) {}

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const md5 = createHash("md5").update(bytes).digest();
    const res = await this.client.putObject({
      Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType, ContentMD5: md5.toString("base64"),
    });
    if (res.ETag !== md5.toString("hex")) {
      throw new Error(`upload of ${key} corrupted: etag ${res.ETag}`);
    }
  }

  async get(key: string): Promise<Uint8Array> {
    return (await this.client.getObject({ Bucket: this.bucket, Key: key })).Body;
  }

  url(key: string): string {
    return `${this.publicBase}/${key}`;
  }
}

export class MemoryStorage implements Storage {
  readonly objects = new Map<string, Uint8Array>();
  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.objects.set(key, bytes);
  }
  async get(key: string): Promise<Uint8Array> {
    const b = this.objects.get(key);
    if (!b) throw new Error(`no object ${key}`);
    return b;
  }
  url(key: string): string {
    return `memory://${key}`;
  }
}

export function originalKey(jobId: string, filename: string): string {
  return `originals/${jobId}/${filename}`;
}
