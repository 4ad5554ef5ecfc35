export interface LineItem {
  sku: string;
  quantity: number;
  unitCents: number;
}

export class Cart {
  private items: LineItem[] = [];

  add(item: LineItem): void {
    const existing = this.items.find((i) => i.sku === item.sku);
    if (existing) {
      existing.quantity += item.quantity;
      return;
    }
    this.items.push({ ...item });
  }

  totalCents(): number {
    // computed on every call: carts are small and a cached total went stale twice
    return this.items.reduce((sum, i) => sum + i.quantity * i.unitCents, 0);
  }
}

export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
