import { PermanentError } from "../errors.js";
import type { Job } from "../queue.js";

export interface WebhookPayload {
  url: string;
  event: string;
  body: unknown;
}

export async function deliverWebhook(job: Job, signal: AbortSignal): Promise<void> {
  const p = job.payload as WebhookPayload;
  const res = await fetch(p.url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-kestrel-event": p.event },
    body: JSON.stringify(p.body),
    signal,
  });
  if (res.status >= 500) throw new Error(`webhook ${p.url} answered ${res.status}`);
  if (!res.ok) throw new PermanentError(`webhook ${p.url} refused the event: ${res.status}`);
}
