package broker

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded JetStream server.
type ServerOptions struct {
	Listen   string // HOST:PORT; port 0 picks a free one
	StoreDir string // where streams are kept (a restart on it loses nothing acknowledged)
	// SyncAlways fsyncs every write (JAIPH_INBOX_FSYNC=true).
	SyncAlways bool
}

// Serve starts a single-node JetStream server and returns once it accepts
// connections. Shutdown it with Shutdown and WaitForShutdown.
func Serve(o ServerOptions) (*server.Server, error) {
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: want HOST:PORT (for example 127.0.0.1:4222)", o.Listen)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("--listen %q: the port must be a number from 0 to 65535", o.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if o.StoreDir == "" {
		return nil, fmt.Errorf("a store directory is needed (--store DIR)")
	}
	s, err := server.NewServer(&server.Options{ServerName: "jaiph", Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir, SyncAlways: o.SyncAlways, NoLog: true, NoSigs: true,
		MaxPayload: 8 << 20})
	if err != nil {
		return nil, err
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("the broker did not start listening on %s within 10s", o.Listen)
	}
	return s, nil
}
