package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Config is the relay's configuration file (JSON).
type Config struct {
	Listen    string     `json:"listen"`
	DataDir   string     `json:"data_dir"`
	Secrets   []Secret   `json:"secrets"`
	Endpoints []Endpoint `json:"endpoints"`
}

// Secret is the shared secret of one webhook source, e.g. a GitHub organisation.
type Secret struct {
	Source string `json:"source"`
	Key    string `json:"key"`
}

// Endpoint is one place deliveries are forwarded to.
type Endpoint struct {
	Name    string   `json:"name"`
	URL     string   `json:"url"`
	Events  []string `json:"events"`
	Timeout Duration `json:"timeout"`
}

// Duration reads "10s"-style strings from JSON.
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string like \"10s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

// LoadConfig reads and validates the configuration at path.
func LoadConfig(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Listen: ":8080", DataDir: "data"}
	if err := json.Unmarshal(raw, cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, e := range cfg.Endpoints {
		if e.Name == "" || e.URL == "" {
			return nil, fmt.Errorf("%s: endpoint %d needs a name and a url", path, i)
		}
		if e.Timeout.Duration == 0 {
			cfg.Endpoints[i].Timeout.Duration = 10 * time.Second
		}
	}
	return cfg, nil
}

// SecretFor returns the key of the named source, or "" when none is configured.
func (c *Config) SecretFor(source string) string {
	for _, s := range c.Secrets {
		if s.Source == source {
			return s.Key
		}
	}
	return ""
}

// Wants reports whether the endpoint subscribes to the event ("*" subscribes to all).
func (e Endpoint) Wants(event string) bool {
	for _, ev := range e.Events {
		if ev == "*" || ev == event {
			return true
		}
	}
	return false
}
