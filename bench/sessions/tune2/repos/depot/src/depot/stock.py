from depot.clock import now


class OutOfStock(Exception):
    pass


class StockLedger:
    def __init__(self):
        self.on_hand = {}
        self.reserved = {}
        self.history = []

    def receive(self, sku, qty):
        self.on_hand[sku] = self.on_hand.get(sku, 0) + qty
        self.history.append((now(), "receive", sku, qty))

    def available(self, sku):
        return self.on_hand.get(sku, 0) - self.reserved.get(sku, 0)

    def reserve(self, sku, qty):
        if self.available(sku) < qty:
            raise OutOfStock(sku)
        self.reserved[sku] = self.reserved.get(sku, 0) + qty
        self.history.append((now(), "reserve", sku, qty))

    def release(self, sku, qty):
        self.reserved[sku] = self.reserved.get(sku, 0) - qty
        self.history.append((now(), "release", sku, qty))

    def ship(self, sku, qty):
        self.release(sku, qty)
        self.on_hand[sku] -= qty
        self.history.append((now(), "ship", sku, qty))
