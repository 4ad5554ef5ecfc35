package inventory

import (
	"errors"
	"sync"
)

var ErrOutOfStock = errors.New("out of stock")

type Stock struct {
	mu     sync.Mutex
	counts map[string]int
}

func NewStock() *Stock {
	return &Stock{counts: map[string]int{}}
}

// Reserve takes quantity units of sku, or none at all.
func (s *Stock) Reserve(sku string, quantity int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts[sku] < quantity {
		return ErrOutOfStock
	}
	s.counts[sku] -= quantity
	return nil
}

func (s *Stock) Restock(sku string, quantity int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[sku] += quantity
}
