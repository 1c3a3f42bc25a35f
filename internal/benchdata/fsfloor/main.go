// Command fsfloor measures what the machine charges for the operations a
// run cannot avoid: creating a file, making a directory, renaming, appending
// a line, and faulting in a fresh page of memory. docs/performance.md
// multiplies them by a workload's counts (strace -c, /usr/bin/time) to give
// the floor no code change can go below.
//
// Usage: go run ./internal/benchdata/fsfloor DIR (a directory on the file
// system the runs write to; fsfloor works in a new directory inside it and
// removes it).
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"
)

const rounds = 400

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fsfloor DIR")
		os.Exit(2)
	}
	dir, err := os.MkdirTemp(os.Args[1], "fsfloor-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsfloor:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	name := func(kind string, i int) string { return filepath.Join(dir, fmt.Sprintf("%s%d", kind, i)) }
	line := make([]byte, 200)
	line[199] = '\n'
	appendTo, err := os.OpenFile(filepath.Join(dir, "log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsfloor:", err)
		os.Exit(1)
	}
	defer appendTo.Close()
	ops := []struct {
		what string
		do   func(i int) error
	}{
		{"create, write 200 bytes, close", func(i int) error {
			f, err := os.OpenFile(name("f", i), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			f.Write(line)
			return f.Close()
		}},
		{"mkdir", func(i int) error { return os.Mkdir(name("d", i), 0o755) }},
		{"rename", func(i int) error { return os.Rename(name("f", i), name("g", i)) }},
		{"append a 200-byte line", func(int) error { _, err := appendTo.Write(line); return err }},
	}
	for _, op := range ops {
		times := make([]time.Duration, rounds)
		for i := range times {
			start := time.Now()
			if err := op.do(i); err != nil {
				fmt.Fprintln(os.Stderr, "fsfloor:", err)
				os.Exit(1)
			}
			times[i] = time.Since(start)
		}
		report(op.what, times)
	}
	// Fresh anonymous memory: every first touch of a page is a fault.
	const pages = 4096
	mem, err := syscall.Mmap(-1, 0, pages*4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fsfloor:", err)
		os.Exit(1)
	}
	times := make([]time.Duration, pages)
	for i := range times {
		start := time.Now()
		mem[i*4096] = 1
		times[i] = time.Since(start)
	}
	report("page fault (first touch of a 4 KiB page)", times)
}

func report(what string, times []time.Duration) {
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	var sum time.Duration
	for _, t := range times {
		sum += t
	}
	fmt.Printf("%-42s median %8.1f µs   mean %8.1f µs   p90 %8.1f µs\n", what,
		us(times[len(times)/2]), us(sum/time.Duration(len(times))), us(times[len(times)*9/10]))
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }
