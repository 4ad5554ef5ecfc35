export interface SmsClient {
  send(to: string, text: string): Promise<void>;
}

export async function notifyWorker(sms: SmsClient, phone: string, text: string): Promise<void> {
  await sms.send(phone, text);
}
