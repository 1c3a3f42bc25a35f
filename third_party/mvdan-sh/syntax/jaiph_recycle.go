// Node recycling: a jaiph-go patch (PATCHES.md).

package syntax

// RecycleNodes makes the parser reuse, in each Parse, the memory of the
// nodes it made in the one before (statements, binary commands, calls,
// words, literals, parameter expansions, double quotes, command
// substitutions): a tree it returns is valid only until it parses again.
// For a caller that parses many small sources and drops each tree at once
// (jaiph check parses each body of a module on its own), the memory is
// reused without waiting for the garbage collector.
func RecycleNodes() ParserOption {
	return func(p *Parser) { p.recycle = true }
}

// slab hands out zeroed values of T from chunks it keeps across resets.
type slab[T any] struct {
	chunks [][]T
	ci, n  int // the next value is chunks[ci][n]
}

func (s *slab[T]) get() *T {
	if s.ci == len(s.chunks) {
		s.chunks = append(s.chunks, make([]T, 64))
	}
	c := s.chunks[s.ci]
	v := &c[s.n]
	var zero T
	*v = zero
	if s.n++; s.n == len(c) {
		s.ci, s.n = s.ci+1, 0
	}
	return v
}

func (s *slab[T]) reset() { s.ci, s.n = 0, 0 }

type callAlloc struct {
	ce CallExpr
	ws [4]*Word
}

type dblQuotedAlloc struct {
	quoted DblQuoted
	parts  [1]WordPart
}

// nodeSlabs are a recycling parser's nodes.
type nodeSlabs struct {
	stmts   slab[Stmt]
	bins    slab[BinaryCmd]
	calls   slab[callAlloc]
	lits    slab[Lit]
	words   slab[wordAlloc]
	params  slab[ParamExp]
	dquotes slab[dblQuotedAlloc]
	substs  slab[CmdSubst]
}

func (s *nodeSlabs) reset() {
	s.stmts.reset()
	s.bins.reset()
	s.calls.reset()
	s.lits.reset()
	s.words.reset()
	s.params.reset()
	s.dquotes.reset()
	s.substs.reset()
}

// resetSlabs starts a Parse of a recycling parser.
func (p *Parser) resetSlabs() {
	if !p.recycle {
		return
	}
	if p.slabs == nil {
		p.slabs = &nodeSlabs{}
	}
	p.slabs.reset()
}

func (p *Parser) newStmt(pos Pos) *Stmt {
	if p.slabs == nil {
		return &Stmt{Position: pos}
	}
	s := p.slabs.stmts.get()
	s.Position = pos
	return s
}

func (p *Parser) newBinaryCmd(opPos Pos, op BinCmdOperator, x *Stmt) *BinaryCmd {
	if p.slabs == nil {
		return &BinaryCmd{OpPos: opPos, Op: op, X: x}
	}
	b := p.slabs.bins.get()
	b.OpPos, b.Op, b.X = opPos, op, x
	return b
}

func (p *Parser) newCallAlloc() *callAlloc {
	if p.slabs == nil {
		return new(callAlloc)
	}
	return p.slabs.calls.get()
}

func (p *Parser) allocLit() *Lit {
	if p.slabs != nil {
		return p.slabs.lits.get()
	}
	if len(p.litBatch) == 0 {
		p.litBatch = make([]Lit, 32)
	}
	l := &p.litBatch[0]
	p.litBatch = p.litBatch[1:]
	return l
}

func (p *Parser) newWordAlloc() *wordAlloc {
	if p.slabs != nil {
		return p.slabs.words.get()
	}
	if len(p.wordBatch) == 0 {
		p.wordBatch = make([]wordAlloc, 32)
	}
	alloc := &p.wordBatch[0]
	p.wordBatch = p.wordBatch[1:]
	return alloc
}

func (p *Parser) newParamExp() *ParamExp {
	if p.slabs == nil {
		return new(ParamExp)
	}
	return p.slabs.params.get()
}

func (p *Parser) newDblQuotedAlloc() *dblQuotedAlloc {
	if p.slabs == nil {
		return new(dblQuotedAlloc)
	}
	return p.slabs.dquotes.get()
}

func (p *Parser) newCmdSubst() *CmdSubst {
	if p.slabs == nil {
		return new(CmdSubst)
	}
	return p.slabs.substs.get()
}
