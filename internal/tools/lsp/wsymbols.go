package lsp

import (
	"path/filepath"
	"sort"
	"strings"
)

// maxWorkspaceSymbols caps a workspace/symbol answer (the best matches
// are kept): a query of one letter in a large workspace matches most
// names, and a client shows a few dozen at most.
const maxWorkspaceSymbols = 100

type WorkspaceSymbolParams struct {
	Query string `json:"query"`
}

type SymbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      Location `json:"location"`
	ContainerName string   `json:"containerName,omitempty"`
}

// workspaceSymbols returns the workflows, rules, functions, channels and
// locals of every module of the workspace (the open documents and the
// .jh files under the root, as references see them) whose name matches
// the query: case-insensitively, its letters in order (`bld` matches
// `build_docs`). Exact names come first, then prefixes, then substrings,
// then the other matches, each by name then module. The container is the
// module, relative to the workspace root.
func (s *server) workspaceSymbols(p WorkspaceSymbolParams) []SymbolInformation {
	type hit struct {
		rank int
		sym  SymbolInformation
	}
	var hits []hit
	q := strings.ToLower(p.Query)
	for _, path := range s.workspace() {
		ix := s.index(path)
		if ix == nil {
			continue
		}
		container := path
		if s.root != "" {
			if rel, err := filepath.Rel(s.root, path); err == nil && !strings.HasPrefix(rel, "..") {
				container = filepath.ToSlash(rel)
			}
		}
		for _, d := range ix.defs {
			if d.ns != nsSymbol || d.name.to <= d.name.from {
				continue
			}
			name := d.label(ix)
			rank := matchRank(strings.ToLower(name), q)
			if rank < 0 {
				continue
			}
			kind := symFunction
			switch d.kind {
			case "channel":
				kind = symEvent
			case "local":
				kind = symVariable
			}
			hits = append(hits, hit{rank, SymbolInformation{Name: name, Kind: kind, Location: s.location(ix, d.name), ContainerName: container}})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.sym.Name != b.sym.Name {
			return a.sym.Name < b.sym.Name
		}
		return a.sym.ContainerName < b.sym.ContainerName
	})
	out := []SymbolInformation{}
	for _, h := range hits[:min(len(hits), maxWorkspaceSymbols)] {
		out = append(out, h.sym)
	}
	return out
}

// matchRank tells how name (lower case) matches the query (lower case):
// 0 equal, 1 a prefix, 2 a substring, 3 its letters in order; -1 no match.
// The empty query matches everything (rank 3).
func matchRank(name, q string) int {
	switch {
	case q == "":
		return 3
	case name == q:
		return 0
	case strings.HasPrefix(name, q):
		return 1
	case strings.Contains(name, q):
		return 2
	}
	i := 0
	for j := 0; j < len(name) && i < len(q); j++ {
		if name[j] == q[i] {
			i++
		}
	}
	if i == len(q) {
		return 3
	}
	return -1
}
