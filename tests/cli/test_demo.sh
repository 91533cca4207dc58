# The built-in demo history (scripts/make-demo-repo.sh): it is reproducible,
# it holds the events its header promises, and maintevo's output on it is
# stable (same bytes run after run, with one reader thread or two).
. "$(dirname "$0")/lib.sh" "$@"

# has FILE LINE / lacks FILE REGEX: an exact line is there / no line matches.
has() { grep -qxF -- "$2" "$1" || fail "$1: no line '$2'"; }
lacks() { ! grep -qE -- "$2" "$1" || fail "$1: unexpected line matching '$2'"; }
# run NAME CMD...: maintevo CMD --repo demo with its output in NAME.
run() { local n=$1; shift; expect_exit 0 "$MEV" "$@" --repo demo --out "$n"; }

step "the generator is deterministic and fast"
start=$(date +%s)
expect_exit 0 "$SRC"/scripts/make-demo-repo.sh demo
[ $(($(date +%s) - start)) -lt 60 ] || fail "make-demo-repo.sh took more than a minute"
[ "$(git -C demo tag | tr '\n' ' ')" = "v1.0 v1.1 v1.2 v1.3 v1.3-rc1 v1.4 v1.5 v1.6 v1.7 " ] ||
	fail "unexpected tags: $(git -C demo tag)"
[ "$(git -C demo rev-parse 'v1.0^{commit}' 'v1.7^{commit}' | tr '\n' ' ')" = \
  "db21ed09d356f2cfc6859057e7f00a78fdfda9fe 356225fdd12f4ad457a4c7fa3761da3ee656ac92 " ] ||
	fail "the demo history has other commit ids than on the reference machine"
files=$(git -C demo ls-tree -r --name-only v1.7 | wc -l)
((files >= 150 && files <= 400)) || fail "v1.7 has $files files"
expect_exit 1 "$SRC"/scripts/make-demo-repo.sh demo
expect_stderr_contains "'demo' exists and is not empty"

step "graph of the newest tag: same bytes twice, with --jobs 1 and --jobs 2"
run g1.csv graph --rev v1.7
run g2.csv graph --rev v1.7
run g3.csv graph --rev v1.7 --jobs 1
run g4.csv graph --rev v1.7 --jobs 2
for f in g2.csv g3.csv g4.csv; do same_files g1.csv "$f"; done
run g1.graphml graph --rev v1.7 --format graphml --jobs 1
run g2.graphml graph --rev v1.7 --format graphml --jobs 2
same_files g1.graphml g2.graphml
run f1.csv filemap --rev v1.7 --jobs 1
run f2.csv filemap --rev v1.7 --jobs 2
same_files f1.csv f2.csv

step "the features of MAINTAINERS at v1.7"
has g1.csv 'GET MAINTAINER SCRIPT,GET MAINTAINER SCRIPT,0,0,0'
has f1.csv 'scripts/dtc/include-prefixes/arm,0,26,ARM DEVICE TREE SOURCES | DEVICE TREE COMPILER'
has f1.csv 'drivers/tty/serial/8250/8250_core.c,132,6887,SERIAL DRIVERS | TTY LAYER AND SERIAL DRIVERS'
has f1.csv 'kernel/fork.c,144,6775,'
lacks g1.csv '^THE REST'
expect_exit 0 "$MEV" graph --repo demo --rev v1.7 --warnings
expect_stderr_contains "MAINTAINERS:83: duplicate section title 'DOCUMENTATION'"
has "$OUT" '"MEMORY MANAGEMENT, CORE","MEMORY MANAGEMENT, CORE",576,28522,8'
for rev in v1.0 v1.1 v1.2 v1.3 v1.4 v1.5 v1.6; do
	run "s-$rev.csv" sections --rev "$rev"
done
run s-v1.3-rc1.csv sections --rev v1.3-rc1
run s-v1.7.csv sections --rev v1.7
for status in Supported Maintained 'Odd Fixes' Orphan 'Buried alive in reporters'; do
	grep -qF ",$status," s-v1.7.csv || fail "no section with status '$status'"
done
has s-v1.3.csv 'ISDN SUBSYSTEM,MAINTAINERS,149,Obsolete,1,0,0,0,3,ISDN SUBSYSTEM,name'

step "every release adds, changes and removes files"
prev=
for rev in v1.0 v1.1 v1.2 v1.3 v1.4 v1.5 v1.6 v1.7; do
	if [ -n "$prev" ]; then
		changes=$(git -C demo diff --name-status "$prev" "$rev" | cut -c1 | sort -u | tr -d '\n')
		[ "$changes" = ADM ] || fail "$prev..$rev: changes '$changes', expected ADM"
	fi
	prev=$rev
done

step "v1.2: BTRFS is born"
lacks s-v1.1.csv '^BTRFS'
has s-v1.2.csv 'BTRFS FILE SYSTEM,MAINTAINERS,59,Maintained,2,0,1,1,3,BTRFS FILE SYSTEM,name'

step "v1.3-rc1 has the code of v1.3 and the MAINTAINERS of v1.2"
same_files s-v1.2.csv s-v1.3-rc1.csv
git -C demo diff --quiet v1.3-rc1 v1.3 -- . ':!MAINTAINERS' ':!Makefile' ||
	fail "v1.3-rc1 and v1.3 differ in more than MAINTAINERS and Makefile"

step "v1.4: NETWORKING DRIVERS splits; wired and wireless stop sharing code"
run g-v1.3.csv graph --rev v1.3
run g-v1.4.csv graph --rev v1.4
has g-v1.3.csv 'NETWORKING DRIVERS,QUALCOMM ATHEROS ATH9K WIRELESS DRIVER,686,32108,5'
has g-v1.4.csv 'NETWORKING DRIVERS (WIRELESS),QUALCOMM ATHEROS ATH9K WIRELESS DRIVER,716,33520,5'
lacks g-v1.4.csv '^(INTEL|NETWORKING DRIVERS|REALTEK)[^(]*,(INTEL WIRELESS|NETWORKING DRIVERS \(|QUALCOMM)'

step "v1.5: USB HOST and USB GADGET merge into USB SUBSYSTEM; ISDN dies"
run g-v1.5.csv graph --rev v1.5
run f-v1.5.csv filemap --rev v1.5
has g-v1.4.csv 'USB GADGET SUBSYSTEM,USB MASS STORAGE GADGET,31,1779,1'
has g-v1.4.csv 'USB EHCI DRIVER,USB HOST SUBSYSTEM,278,14219,2'
lacks g-v1.4.csv '^USB GADGET SUBSYSTEM,USB HOST'
has g-v1.5.csv 'USB MASS STORAGE GADGET,USB SUBSYSTEM,31,1779,1'
has g-v1.5.csv 'USB EHCI DRIVER,USB SUBSYSTEM,278,14219,2'
lacks g-v1.5.csv '^USB (HOST|GADGET) SUBSYSTEM'
has g-v1.4.csv 'ISDN SUBSYSTEM,ISDN SUBSYSTEM,715,33991,7'
lacks g-v1.5.csv 'ISDN'
lacks f-v1.5.csv '^drivers/isdn/'

step "v1.6: DRM DRIVERS renamed, same patterns"
run p-v1.5.csv sections --rev v1.5 --patterns
run p-v1.6.csv sections --rev v1.6 --patterns
sed -n 's/^DRM DRIVERS,\(.*\),DRM DRIVERS$/\1/p' p-v1.5.csv >drm-v1.5
sed -n 's/^DRM DRIVERS AND COMMON INFRASTRUCTURE,\(.*\),DRM DRIVERS AND COMMON INFRASTRUCTURE$/\1/p' \
	p-v1.6.csv >drm-v1.6
[ -s drm-v1.5 ] || fail "no DRM DRIVERS patterns in v1.5"
same_files drm-v1.5 drm-v1.6

step "v1.7: MAINTAINERS identical to v1.6, the code is not"
same_files s-v1.6.csv s-v1.7.csv
git -C demo diff --quiet v1.6 v1.7 -- MAINTAINERS || fail "MAINTAINERS changed in v1.7"
run g-v1.6.csv graph --rev v1.6
! cmp -s g-v1.6.csv g1.csv || fail "the graphs of v1.6 and v1.7 are identical"
echo "PASS"
