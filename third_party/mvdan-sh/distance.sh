#!/usr/bin/env bash
# distance.sh: how far third_party/mvdan-sh is from upstream mvdan.cc/sh/v3.
# Run by hand from anywhere (needs go, git, gofmt; network for the module proxy):
#
#   third_party/mvdan-sh/distance.sh [BASE [NEW [PROXY]]]
#
# BASE  the upstream release the fork was copied from (default v3.14.1)
# NEW   the upstream release to compare with (default: newest v3 release,
#       from `go list -m -versions`)
# PROXY an older release used to estimate the conflict surface of a future
#       release of the same size (default: the previous minor's last release
#       before BASE's minor, e.g. v3.13.1 for v3.14.x; "" to skip)
# UPSTREAM_GIT=/path/to/mvdan/sh.git (optional) adds commit counts.
#
# Upstream trees come from the Go module proxy through `go mod download`.
# Only the non-test .go files of the packages we carry are compared
# (syntax, expand, interp, pattern, fileutil, internal; not syntax/typedjson,
# nor the test helper internal/testing.go, which we do not carry);
# our jaiph_*_test.go files are left out and our import paths are rewritten
# back to mvdan.cc/sh/v3/... (then gofmt'ed, which re-sorts the imports).
#
# (a) fork vs BASE: files changed, lines added/removed per package.
# (b) upstream BASE -> NEW: commits (with UPSTREAM_GIT), files, lines.
# (c) `git merge-file` of fork / BASE / NEW per file: conflict hunks, i.e.
#     the rebase conflict surface. With PROXY, the same merge against PROXY
#     (fork / BASE / PROXY: undoing upstream's last release is as large a
#     change as making one, and conflicts where it overlaps our patches).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
pkgs="syntax expand interp pattern fileutil internal"
mod=mvdan.cc/sh/v3
ours_import=github.com/jaiph-go/jaiph/third_party/mvdan-sh

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && go mod init distance >/dev/null 2>&1)

versions=$(cd "$tmp" && GOFLAGS=-mod=mod go list -m -versions "$mod" | tr ' ' '\n' | grep '^v3\.' | sort -V)
BASE=${1:-v3.14.1}
NEW=${2:-$(tail -1 <<<"$versions")}
if [ $# -ge 3 ]; then PROXY=$3; else
	# the last release before BASE's minor, e.g. v3.13.1 for v3.14.1
	PROXY=$(printf '%s\n' "$versions" "$(cut -d. -f1,2 <<<"$BASE").0" | sort -uV |
		grep -B1 -x "$(cut -d. -f1,2 <<<"$BASE").0" | head -1)
fi

download() { # version -> directory of its module
	(cd "$tmp" && GOFLAGS=-mod=mod go mod download -json "$mod@$1") | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p'
}

# copy: the carried packages' non-test Go files of $1 into $2
copy() {
	mkdir -p "$2"
	for p in $pkgs; do
		[ -d "$1/$p" ] || continue
		mkdir -p "$2/$p"
		find "$1/$p" -maxdepth 1 -name '*.go' ! -name '*_test.go' ! -name testing.go -exec cp {} "$2/$p/" \;
	done
	chmod -R u+w "$2"
}

copy "$(download "$BASE")" "$tmp/base"
copy "$(download "$NEW")" "$tmp/new"
copy "$here" "$tmp/ours"
find "$tmp/ours" -name '*.go' -exec sed -i "s#\"$ours_import/#\"$mod/#" {} +
gofmt -w "$tmp/ours"
[ -n "$PROXY" ] && copy "$(download "$PROXY")" "$tmp/proxy"

# numstat DIR1 DIR2 (names under $tmp): per package "files +added -removed" (added/removed files counted too)
numstat() {
	{ (cd "$tmp" && git diff --no-index --numstat "$1" "$2") || true; } | awk '
	{ f=$NF; if (f == "/dev/null") f=$(NF-2); sub(/^[^\/]*\//, "", f)
	  split(f, x, "/"); p=x[1]; files[p]++; add[p]+=$1; del[p]+=$2; T+=1; A+=$1; D+=$2
	  if ($0 ~ /^[0-9]+\t[0-9]+\t\/dev\/null => /) { nf[p]++; NF_+=1 } }
	END { for (p in files) printf "  %-9s %3d files (%d new)  +%-6d -%d\n", p, files[p], nf[p], add[p], del[p]
	      printf "  %-9s %3d files (%d new)  +%-6d -%d\n", "total", T, NF_, A, D }' | sort
}

# commits FROM TO: upstream commits touching the carried packages (UPSTREAM_GIT only)
commits() {
	[ -n "${UPSTREAM_GIT:-}" ] || return 0
	echo "  commits touching the carried packages: $(git --git-dir="$UPSTREAM_GIT" rev-list --count "$1..$2" -- $pkgs 2>/dev/null ||
		echo "n/a ($1 or $2 not in $UPSTREAM_GIT)")"
}

# merges THEIRS: conflict hunks of fork/BASE/THEIRS per file
merges() {
	local total=0 files=0 f n
	for f in $(cd "$tmp/ours" && find . -name '*.go' | sort); do
		[ -f "$tmp/base/$f" ] && [ -f "$1/$f" ] || continue
		cmp -s "$tmp/base/$f" "$1/$f" && continue
		cp "$tmp/ours/$f" "$tmp/m"
		n=$(git merge-file -q "$tmp/m" "$tmp/base/$f" "$1/$f" && echo 0 || true)
		[ -z "$n" ] && n=$(grep -c '^<<<<<<<' "$tmp/m")
		[ "$n" -gt 0 ] && { printf "  %-28s %d conflict hunks\n" "${f#./}" "$n"; files=$((files + 1)); }
		total=$((total + n))
	done
	echo "  total: $total conflict hunks in $files files"
}

echo "date: $(date -u +%F); base $BASE; newest release $NEW"
echo
echo "(a) fork vs $BASE (non-test Go files, imports normalised):"
numstat base ours
echo
echo "(b) upstream $BASE -> $NEW:"
if [ "$BASE" = "$NEW" ]; then echo "  none: $BASE is the newest release"; else
	commits "$BASE" "$NEW"
	numstat base new
fi
echo
echo "(c) 3-way merge fork / $BASE / $NEW:"
merges "$tmp/new"
if [ -n "$PROXY" ]; then
	echo
	echo "(c') estimate for a release the size of $PROXY -> $BASE: its changes in the carried packages"
	commits "$PROXY" "$BASE"
	numstat proxy base
	echo "  3-way merge fork / $BASE / $PROXY:"
	merges "$tmp/proxy"
fi
