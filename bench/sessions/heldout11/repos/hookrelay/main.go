// Command hookrelay receives webhooks from providers, records every delivery on disk and
// forwards it to the configured targets.
//
//	hookrelay serve  -config relay.json
//	hookrelay list   -config relay.json [-n 20]
//	hookrelay replay -config relay.json <delivery-id>
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	cmd, args := os.Args[1], os.Args[2:]
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	configPath := fs.String("config", "relay.json", "path of the relay configuration")
	n := fs.Int("n", 20, "number of deliveries to list")
	fs.Parse(args)

	cfg, err := LoadConfig(*configPath)
	if err != nil {
		log.Fatalf("hookrelay: %v", err)
	}
	store, err := OpenStore(cfg.DataDir)
	if err != nil {
		log.Fatalf("hookrelay: %v", err)
	}

	switch cmd {
	case "serve":
		err = runServe(cfg, store)
	case "list":
		err = runList(store, *n)
	case "replay":
		err = runReplay(cfg, store, fs.Args())
	default:
		usage()
	}
	if err != nil {
		log.Fatalf("hookrelay %s: %v", cmd, err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: hookrelay serve|list|replay -config relay.json [args]")
	os.Exit(2)
}

func runServe(cfg *Config, store *Store) error {
	fwd := NewForwarder(cfg.Endpoints, store)
	srv := NewServer(cfg, store, fwd)
	log.Printf("hookrelay listening on %s", cfg.Listen)
	return srv.ListenAndServe()
}

func runList(store *Store, n int) error {
	deliveries, err := store.Recent(n)
	if err != nil {
		return err
	}
	for _, d := range deliveries {
		fmt.Printf("%s  %-8s %-24s %s\n", d.ID, d.Status, d.Event, d.Received.Format("2006-01-02 15:04:05"))
	}
	return nil
}

func runReplay(cfg *Config, store *Store, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("replay takes one delivery id, got %d arguments", len(args))
	}
	d, err := store.Get(args[0])
	if err != nil {
		return err
	}
	fwd := NewForwarder(cfg.Endpoints, store)
	return fwd.Deliver(d)
}
