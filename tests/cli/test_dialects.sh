# The table of dialects (include/maintevo/dialect.h) and what reads it:
# 'maintevo dialects', --dialect with every name and alias, the man page's
# DIALECTS section and the bash completion.  A dialect added to the table
# without its man page entry fails here.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
MAN=$SRC/docs/maintevo.1
COMPLETION=$SRC/scripts/bash-completion/maintevo

step "maintevo dialects: CSV with a header, JSON Lines, --names"
expect_exit 0 "$MEV" dialects
head -n 1 "$OUT" | grep -qx 'name,aliases,display,tags,rc_tags,files,detect' ||
	fail "dialects: header '$(head -n 1 "$OUT")'"
expect_exit 0 "$MEV" dialects --format jsonl -o table.jsonl
expect_exit 0 "$MEV" dialects --names
cp "$OUT" names.txt
[ -s names.txt ] || fail "dialects --names printed nothing"
python3 - table.jsonl names.txt <<'EOF' || fail "dialects --names is not the table's names"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
names = open(sys.argv[2]).read().split("\n")[:-1]
assert [r["name"] for r in rows] == names, (names, rows)
assert all(r["display"] and r["tags"] and r["rc_tags"] and r["files"] and r["detect"] for r in rows), rows
EOF

step "--dialect takes every name and alias, and auto"
mkrepo r
# readable by every dialect: OP-TEE's script starts after a '----------' line
printf -- '----------\nA\nM:\tA <a@example.org>\nF:\ta/\n' >r/MAINTAINERS
# edk2 reads Maintainers.txt
printf 'A\nM: A <a@example.org>\nF: a/\n' >r/Maintainers.txt
# Zephyr reads MAINTAINERS.yml
printf 'A:\n    files: [a/]\n' >r/MAINTAINERS.yml
mkdir r/a && echo a >r/a/a.c
commit_all r v1
for d in auto $(python3 -c 'import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    print(r["name"], r["aliases"])' table.jsonl); do
	expect_exit 0 "$MEV" sections --repo r --rev v1 --dialect "$d" -o /dev/null
done

step "explain names the script whose rules it follows"
while read -r d script; do
	expect_exit 0 "$MEV" explain --repo r --rev v1 --dialect "$d" a/a.c
	expect_stdout_contains "a/a.c in v1: 1 section (as $script decides, keywords off)"
	expect_exit 0 "$MEV" walk --repo r --store "st-$d" --dialect "$d" --tags v1 -q
	expect_exit 0 "$MEV" explain --store "st-$d" --release v1 a/a.c
	expect_stdout_contains "(as $script decides, keywords off)"
done <<'EOF2'
linux scripts/get_maintainer.pl
coreboot util/scripts/get_maintainer.pl
dpdk the kernel's get_maintainer.pl
optee scripts/get_maintainer.py
edk2 BaseTools/Scripts/GetMaintainer.py
zephyr scripts/get_maintainer.py
EOF2

step "explain and filemap --help say the release's script decides, not get_maintainer.pl alone"
for c in explain filemap; do
	expect_exit 0 "$MEV" "$c" --help
	expect_stdout_contains "script decides"
	expect_stdout_contains "(get_maintainer.pl, or the"
	expect_stdout_contains "Python script of OP-TEE, edk2 or Zephyr"
	! grep -qF "get_maintainer.pl decides" "$OUT" || fail "$c --help: get_maintainer.pl alone decides"
done

step "sections --help: comment titles are any comment-reading script's, underlines QEMU's and DPDK's"
expect_exit 0 "$MEV" sections --help
expect_stdout_contains "script reads '#' lines, as U-Boot's did in 2014-2017"
expect_stdout_contains "as in QEMU and DPDK"
! grep -qF "(comment: U-Boot 2014-2017)" "$OUT" || fail "sections --help: comment titles as U-Boot's only"

step "zephyr: a release whose MAINTAINERS.yml is bad YAML keeps the areas of the one before"
mkrepo z
mkdir -p z/boards/x z/subsys/net z/kernel
echo b >z/boards/x/b.c && echo n >z/subsys/net/n.c && echo k >z/kernel/k.c
printf 'Net:\n    files:\n        - subsys/net/\nKernel:\n    files: [kernel/]\n' >z/MAINTAINERS.yml
commit_all z v1.0.0
printf 'Net:\n    files:\n        - subsys/net/\n  Kernel: [oops\n' >z/MAINTAINERS.yml
echo m >z/kernel/m.c
commit_all z v1.1.0
printf 'Net:\n    files: [subsys/]\n' >z/MAINTAINERS.yml
commit_all z v1.2.0
expect_exit 0 "$MEV" walk --repo z --store zs
expect_exit 0 "$MEV" releases --store zs
python3 - "$OUT" <<'EOF' || fail "releases: v1.1.0 should keep v1.0.0's 2 sections, with 2 notes"
import csv, sys
r = {x["release"]: x for x in csv.DictReader(open(sys.argv[1]))}
assert r["v1.1.0"]["sections"] == "2" and r["v1.1.0"]["notes"] == "2", r["v1.1.0"]
assert r["v1.2.0"]["sections"] == "1", r["v1.2.0"]
EOF
expect_exit 1 "$MEV" sections --repo z --rev v1.1.0 --warnings
grep -q "MAINTAINERS.yml:4: YAML error at line 4, column " "$ERR" ||
	fail "sections: no YAML error with its line and column"
expect_exit 0 "$MEV" filemap --store zs --release v1.1.0
grep -qx 'kernel/m.c,1,2,Kernel' "$OUT" || fail "v1.1.0: kernel/m.c not in the areas kept from v1.0.0"
grep -qx 'subsys/net/n.c,1,2,Net' "$OUT" || fail "v1.1.0: subsys/net/n.c"
expect_exit 0 "$MEV" filemap --store zs --release v1.2.0
grep -qx 'kernel/m.c,1,2,' "$OUT" || fail "v1.2.0: kernel/m.c still covered"

step "the man page's DIALECTS section says what the table says"
python3 - "$MAN" table.jsonl <<'EOF' || fail "docs/maintevo.1, DIALECTS: see above"
import json, re, sys
man = open(sys.argv[1], encoding="utf-8").read()
rows = [json.loads(l) for l in open(sys.argv[2])]
m = re.search(r"^\.SH DIALECTS\n(.*?)^\.SH ", man, re.S | re.M)
assert m, "no .SH DIALECTS section"
# each entry: ".TP", ".B NAME", its text up to the next .TP
entries = re.findall(r"^\.TP\n\.B (\S+)\n(.*?)(?=^\.TP|\Z)", m.group(1), re.S | re.M)
def plain(t):
    return " ".join(t.replace("\\-", "-").split())
names = [plain(n) for n, _ in entries]
bad = []
if names != [r["name"] for r in rows]:
    bad.append(f"dialects {names}, the table has {[r['name'] for r in rows]} (in this order)")
for (name, text), r in zip(entries, rows):
    text = plain(text)
    for key in ("display", "tags", "rc_tags", "files", "detect"):
        if r[key] not in text:
            bad.append(f"{r['name']}: no {key} '{r[key]}'")
    for a in r["aliases"].split():
        if a not in text:
            bad.append(f"{r['name']}: no alias '{a}'")
for b in bad:
    print("docs/maintevo.1, DIALECTS:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF

step "the bash completion offers auto and the table's names after --dialect"
want=$( (echo auto; cat names.txt) | sort | tr '\n' ' ' | sed 's/ $//')
got=$(bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _maintevo
	printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"' \
	comp "$COMPLETION" "$MEV" walk --dialect "") || fail "completing --dialect failed"
[ "$got" = "$want" ] || fail "completing --dialect: got '$got', expected '$want'"
# a binary without the command (an older one): nothing offered, no error
printf '#!/bin/sh\nexit 2\n' >old-maintevo
chmod +x old-maintevo
got=$(bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _maintevo
	printf "%s\n" "${COMPREPLY[@]}"' comp "$COMPLETION" "$TMP/old-maintevo" walk --dialect "" 2>&1) ||
	fail "completing --dialect with an older binary failed"
[ -z "$got" ] || fail "completing --dialect with an older binary: got '$got', expected nothing"

step "a dialect that changes within the history: the walk refuses, saying what it found (issue 38, point 5)"
# v2020.01 looks like Linux (a MAINTAINERS file alone), v2021.01 and HEAD
# like U-Boot (board/ and include/configs/): --dialect auto took U-Boot for
# both, and 'filemap --store' could differ from 'filemap --repo' for v2020.01
mkrepo turn
printf 'NET\nM:\tA <a@b.c>\nS:\tMaintained\nF:\tnet/\n' >turn/MAINTAINERS
mkdir turn/net && echo a >turn/net/a.c
commit_all turn v2020.01
mkdir -p turn/board/acme turn/include/configs
printf 'ACME\nM:\tB <b@b.c>\nS:\tMaintained\nF:\tboard/acme/\n' >turn/board/acme/MAINTAINERS
echo b >turn/board/acme/b.c && echo c >turn/include/configs/acme.h
commit_all turn v2021.01
expect_exit 1 "$MEV" walk --repo turn --store TS
expect_error "the releases of 'turn' look like more than one dialect: uboot (HEAD), linux (v2020.01, the oldest to walk); with --dialect auto the walk would read them all as uboot"
expect_stderr_contains "hint: name the dialect: --dialect uboot reads every release as HEAD's"
# named, every release is read as that dialect, from the store as from the repository
expect_exit 0 "$MEV" walk --repo turn --store TS --dialect uboot -q
expect_exit 0 "$MEV" filemap --store TS --release v2020.01
cp "$OUT" store.csv
expect_exit 0 "$MEV" filemap --repo turn --rev v2020.01 --dialect uboot
same_files store.csv "$OUT"
# the newer releases alone are one dialect: walked as before
expect_exit 0 "$MEV" walk --repo turn --store TN --tags v2021.01 -q
echo "PASS"
