// Copyright (c) 2018, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"cmp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// Environ is the base interface for a shell's environment, allowing it to fetch
// variables by name and to iterate over all the currently set variables.
type Environ interface {
	// Get retrieves a variable by its name. To check if the variable is
	// set, use Variable.IsSet.
	Get(name string) Variable

	// TODO(v4): make Each below a func that returns an iterator.

	// Each iterates over all the currently set variables, calling the
	// supplied function on each variable. Iteration is stopped if the
	// function returns false.
	//
	// The names used in the calls aren't required to be unique or sorted.
	// If a variable name appears twice, the latest occurrence takes
	// priority.
	//
	// Each is required to forward exported variables when executing
	// programs.
	Each(func(name string, vr Variable) bool)
}

// TODO(v4): [WriteEnviron.Set] below is overloaded to the point that correctly
// implementing both sides of the interface is tricky. In particular, some operations
// such as `export foo` or `readonly foo` alter the attributes but not the value,
// and `foo=bar` or `foo=[3]=baz` alter the value but not the attributes.

// WriteEnviron is an extension on Environ that supports modifying and deleting
// variables.
type WriteEnviron interface {
	Environ
	// Set sets a variable by name. If !vr.IsSet(), the variable is being
	// unset; otherwise, the variable is being replaced.
	//
	// The given variable can have the kind [KeepValue] to replace an existing
	// variable's attributes without changing its value at all.
	// This is helpful to implement `readonly foo=bar; export foo`,
	// as the second declaration needs to clearly signal that the value is not modified.
	//
	// An error may be returned if the operation is invalid, such as if the
	// name is empty or if we're trying to overwrite a read-only variable.
	Set(name string, vr Variable) error
}

// ElemValuer is implemented by a WriteEnviron whose arrays transform a
// value placed in one of their elements, as bash's declare -i/-l/-u do
// (jaiph-go patch): the expansion transforms the element it assigns
// before it sets the whole array, whose other elements stay as they are.
type ElemValuer interface {
	// ElemValue is val as an element of vr, the array named name.
	ElemValue(name string, vr Variable, val string) (string, error)
}

// elemValue is val as an element of vr, the array named name, holds it
// (see ElemValuer).
func elemValue(env Environ, name string, vr Variable, val string) (string, error) {
	if ev, ok := env.(ElemValuer); ok && (vr.Integer || vr.Lower || vr.Upper) {
		return ev.ElemValue(name, vr, val)
	}
	return val, nil
}

//go:generate go tool stringer -type=ValueKind

// ValueKind describes which kind of value the variable holds.
// While most unset variables will have an [Unknown] kind, an unset variable may
// have a kind associated too, such as via `declare -a foo` resulting in [Indexed].
type ValueKind uint8

const (
	// Unknown is used for unset variables which do not have a kind yet.
	Unknown ValueKind = iota
	// String describes plain string variables, such as `foo=bar`.
	String
	// NameRef describes variables which reference another by name, such as `declare -n foo=foo2`.
	NameRef
	// Indexed describes indexed array variables, such as `foo=(bar baz)`.
	Indexed
	// Associative describes associative array variables, such as `foo=([bar]=x [baz]=y)`.
	Associative

	// KeepValue is used by [WriteEnviron.Set] to signal that we are changing attributes
	// about a variable, such as exporting it, without changing its value at all.
	KeepValue

	// Deprecated: use [Unknown], as tracking whether or not a variable is set
	// is now done via [Variable.Set].
	// Otherwise it was impossible to describe an unset variable with a known kind
	// such as `declare -A foo`.
	Unset = Unknown
)

// Variable describes a shell variable, which can have a number of attributes
// and a value.
type Variable struct {
	// Set is true when the variable has been set to a value,
	// which may be empty.
	Set bool

	Local    bool
	Exported bool
	ReadOnly bool

	// Integer, Lower and Upper are bash's declare -i, -l and -u
	// attributes (jaiph-go patch); the interpreter applies them when
	// the variable is assigned.
	Integer, Lower, Upper bool

	// Kind defines which of the value fields below should be used.
	Kind ValueKind

	Str  string            // Used when Kind is String or NameRef.
	List []string          // Used when Kind is Indexed.
	Map  map[string]string // Used when Kind is Associative.

	// MapSeq records when each key of Map was first set, so that keys
	// sharing a hash bucket list newest first as in bash (jaiph-go patch).
	// Use [Variable.SetAssoc] and [Variable.DeleteAssoc] to keep it.
	MapSeq map[string]uint64

	// Indexes records the index of each [Variable.List] element when an
	// indexed array is sparse, such as `a=([2]=x [5]=y)`. The indices
	// must be unique, non-negative, sorted, and as many as the List
	// elements. Nil means the array is dense: element i has index i.
	Indexes []int
}

// IsSet reports whether the variable has been set to a value.
// The zero value of a Variable is unset.
func (v Variable) IsSet() bool {
	return v.Set
}

// Declared reports whether the variable has been declared.
// Declared variables may not be set; `export foo` is exported but not set to a value,
// and `declare -a foo` is an indexed array but not set to a value.
func (v Variable) Declared() bool {
	return v.Set || v.Local || v.Exported || v.ReadOnly || v.Kind != Unknown || v.Integer || v.Lower || v.Upper // jaiph-go patch: -i -l -u
}

// Flags returns the variable's attribute flags in the order used by bash's
// declare builtin and ${var@a}: type (a/A/n), readonly (r), exported (x).
func (v Variable) Flags() string {
	var flags []byte
	switch v.Kind {
	case Indexed:
		flags = append(flags, 'a')
	case Associative:
		flags = append(flags, 'A')
	}
	if v.Integer {
		flags = append(flags, 'i')
	}
	if v.Kind == NameRef {
		flags = append(flags, 'n')
	}
	if v.ReadOnly {
		flags = append(flags, 'r')
	}
	if v.Exported {
		flags = append(flags, 'x')
	}
	if v.Lower {
		flags = append(flags, 'l')
	}
	if v.Upper {
		flags = append(flags, 'u')
	}
	return string(flags)
}

// String returns the variable's value as a string. In general, this only makes
// sense if the variable has a string value or no value at all.
func (v Variable) String() string {
	switch v.Kind {
	case String:
		return v.Str
	case Indexed:
		if str, ok := v.IndexedValue(0); ok {
			return str
		}
	case Associative:
		// jaiph-go patch: as in bash, $m of an associative array is
		// ${m[0]}, its value at key "0".
		return v.Map["0"]
	}
	return ""
}

// IndexedValue returns the element of an indexed array at index i,
// taking [Variable.Indexes] into account for sparse arrays (jaiph-go
// patch: exported for the interpreter).
func (v Variable) IndexedValue(i int) (string, bool) {
	if v.Indexes != nil {
		if pos, ok := slices.BinarySearch(v.Indexes, i); ok {
			return v.List[pos], true
		}
		return "", false
	}
	if i < len(v.List) {
		return v.List[i], true
	}
	return "", false
}

// indexedKeys returns the index of each element of an indexed array as a
// string, for the sake of expansions like "${!a[@]}".
func (v Variable) indexedKeys() []string {
	keys := make([]string, len(v.List))
	for i := range v.List {
		if v.Indexes != nil {
			keys[i] = strconv.Itoa(v.Indexes[i])
		} else {
			keys[i] = strconv.Itoa(i)
		}
	}
	return keys
}

// maxNameRefDepth defines the maximum number of times to follow references when
// resolving a variable. Otherwise, simple name reference loops could crash a
// program quite easily.
const maxNameRefDepth = 100

// Resolve follows a number of nameref variables, returning the last reference
// name that was followed and the variable that it points to.
func (v Variable) Resolve(env Environ) (string, Variable) {
	name := ""
	for range maxNameRefDepth {
		if v.Kind != NameRef || v.Str == "" {
			// jaiph-go patch: a nameref without a value (declare -n
			// r) names nothing; it reads as empty.
			return name, v
		}
		name = v.Str // keep name for the next iteration
		v = env.Get(name)
	}
	return name, Variable{}
}

// nameRefLoop reports whether following v's namerefs never ends (bash's
// "circular name reference", jaiph-go patch).
func nameRefLoop(env Environ, v Variable) bool {
	for range maxNameRefDepth {
		if v.Kind != NameRef || v.Str == "" {
			return false
		}
		if pe, ok := env.(PeekEnviron); ok {
			v = pe.Peek(v.Str) // a nameref to RANDOM draws no number here
		} else {
			v = env.Get(v.Str)
		}
	}
	return true
}

// FuncEnviron wraps a function mapping variable names to their string values,
// and implements [Environ]. Empty strings returned by the function will be
// treated as unset variables. All variables will be exported.
//
// Note that the returned Environ's Each method will be a no-op.
func FuncEnviron(fn func(string) string) Environ {
	return funcEnviron(fn)
}

type funcEnviron func(string) string

func (f funcEnviron) Get(name string) Variable {
	value := f(name)
	if value == "" {
		return Variable{}
	}
	return Variable{Set: true, Exported: true, Kind: String, Str: value}
}

func (f funcEnviron) Each(func(name string, vr Variable) bool) {}

// ListEnviron returns an [Environ] with the supplied variables, in the form
// "key=value". All variables will be exported. The last value in pairs is used
// if multiple values are present.
//
// On Windows, where environment variable names are case-insensitive, the
// resulting variable names will all be uppercase.
func ListEnviron(pairs ...string) Environ {
	return listEnviron_(runtime.GOOS == "windows", pairs...)
}

// listEnviron_ implements [ListEnviron], but letting the tests specify
// whether to uppercase all names or not.
func listEnviron_(caseInsensitive bool, pairs ...string) Environ {
	list := slices.Clone(pairs)
	env := listEnviron{caseInsensitive: caseInsensitive}
	slices.SortStableFunc(list, func(a, b string) int {
		isep := strings.IndexByte(a, '=')
		jsep := strings.IndexByte(b, '=')
		if isep < 0 {
			isep = 0
		} else {
			isep += 1
		}
		if jsep < 0 {
			jsep = 0
		} else {
			jsep += 1
		}
		return env.compare(a[:isep], b[:jsep])
	})

	last := ""
	for i := 0; i < len(list); {
		name, _, ok := strings.Cut(list[i], "=")
		if name == "" || !ok {
			// invalid element; remove it
			list = slices.Delete(list, i, i+1)
			continue
		}
		if env.compare(last, name) == 0 {
			// duplicate; the last one wins
			list = slices.Delete(list, i-1, i)
			continue
		}
		last = name
		i++
	}
	env.pairs = list
	return env
}

// listEnviron is a sorted list of "name=value" strings.
type listEnviron struct {
	caseInsensitive bool
	pairs           []string
}

func (l listEnviron) compare(a, b string) int {
	if l.caseInsensitive {
		// This is not particularly efficient, but it does the job.
		// If we had a cmp-compatible version of [strings.EqualFold], we'd use it.
		a = strings.ToUpper(a)
		b = strings.ToUpper(b)
	}
	return strings.Compare(a, b)
}

func (l listEnviron) Get(name string) Variable {
	eqpos := len(name)
	endpos := len(name) + 1
	i, ok := slices.BinarySearchFunc(l.pairs, name, func(pair, name string) int {
		if len(pair) < endpos {
			// Too short; see if we are before or after the name.
			return l.compare(pair, name)
		}
		// Compare the name prefix, then the equal character.
		c := l.compare(pair[:eqpos], name)
		eq := pair[eqpos]
		if c == 0 {
			return cmp.Compare(eq, '=')
		}
		return c
	})
	if ok {
		return Variable{Set: true, Exported: true, Kind: String, Str: l.pairs[i][endpos:]}
	}
	return Variable{}
}

func (l listEnviron) Each(fn func(name string, vr Variable) bool) {
	for _, pair := range l.pairs {
		name, value, ok := strings.Cut(pair, "=")
		if !ok {
			// should never happen; see listEnvironWithUpper
			panic("expand.listEnviron: did not expect malformed name-value pair: " + pair)
		}
		if !fn(name, Variable{Set: true, Exported: true, Kind: String, Str: value}) {
			return
		}
	}
}

// bashAssocBucket is the bucket of key in bash's associative array hash table
// (FNV-1 hash, 1024 buckets). jaiph-go patch: bash lists an associative
// array's keys and values bucket by bucket, so that order is reproduced.
func bashAssocBucket(key string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h *= 16777619
		// bash's hash_string XORs a char, signed on the platforms
		// it runs on: a byte from 0x80 up (é's) is sign-extended
		h ^= uint32(int32(int8(key[i])))
	}
	return h & 1023
}

// AssocKeys returns the keys of an associative array in the order bash lists
// them for ${!a[@]}, ${a[@]} and declare -p: by hash bucket. jaiph-go patch
// (upstream sorted keys and values separately, so ${!a[@]} and ${a[@]} did not
// pair up and neither matched bash). Keys sharing a bucket are ordered by key,
// since insertion order (bash lists the newest first) is not recorded.
func (v Variable) AssocKeys() []string {
	keys := make([]string, 0, len(v.Map))
	for k := range v.Map {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(bashAssocBucket(a), bashAssocBucket(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(v.MapSeq[b], v.MapSeq[a]); c != 0 {
			return c // newest first within a bucket
		}
		return strings.Compare(a, b)
	})
	return keys
}

var assocSeq atomic.Uint64

// NextAssocSeq numbers a new associative array key for [Variable.MapSeq]
// (jaiph-go patch).
func NextAssocSeq() uint64 { return assocSeq.Add(1) }

// SetAssoc sets key k of an associative array to val, on copies of its
// maps (jaiph-go patch); a new key is the newest in insertion order.
func (v *Variable) SetAssoc(k, val string) {
	m := make(map[string]string, len(v.Map)+1)
	for key, value := range v.Map {
		m[key] = value
	}
	seq := make(map[string]uint64, len(v.MapSeq)+1)
	for key, n := range v.MapSeq {
		seq[key] = n
	}
	if _, ok := m[k]; !ok {
		seq[k] = assocSeq.Add(1)
	}
	m[k] = val
	v.Map, v.MapSeq = m, seq
}

// DeleteAssoc removes key k of an associative array, on copies of its maps
// (jaiph-go patch).
func (v *Variable) DeleteAssoc(k string) {
	m := make(map[string]string, len(v.Map))
	for key, value := range v.Map {
		if key != k {
			m[key] = value
		}
	}
	seq := make(map[string]uint64, len(v.MapSeq))
	for key, n := range v.MapSeq {
		if key != k {
			seq[key] = n
		}
	}
	v.Map, v.MapSeq = m, seq
}

// AssocValues returns the values of an associative array in the order of
// [Variable.AssocKeys].
func (v Variable) AssocValues() []string {
	keys := v.AssocKeys()
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = v.Map[k]
	}
	return vals
}
