//go:build nats

package main

// The jaiph-nats build: the broker, the worker and the JetStream inbox
// transport linked in (internal/broker, internal/tools/brokercmd).

import "github.com/jaiph-go/jaiph/internal/broker"

func init() { broker.Install() }
