/** A doubly linked list in recency order: head is the most recently used. */

export interface LruNode<K, V> {
  key: K;
  value: V;
  size: number;
  expiresAt: number;
  prev: LruNode<K, V> | null;
  next: LruNode<K, V> | null;
}

export class LruList<K, V> {
  head: LruNode<K, V> | null = null;
  tail: LruNode<K, V> | null = null;
  length = 0;

  pushFront(node: LruNode<K, V>): void {
    node.prev = null;
    node.next = this.head;
    if (this.head) this.head.prev = node;
    this.head = node;
    if (!this.tail) this.tail = node;
    this.length++;
  }

  remove(node: LruNode<K, V>): void {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = node.next = null;
    this.length--;
  }

  moveToFront(node: LruNode<K, V>): void {
    if (this.head === node) return;
    this.remove(node);
    this.pushFront(node);
  }

  popBack(): LruNode<K, V> | null {
    const node = this.tail;
    if (node) this.remove(node);
    return node;
  }

  *entries(): IterableIterator<LruNode<K, V>> {
    for (let n = this.head; n; n = n.next) yield n;
  }
}
