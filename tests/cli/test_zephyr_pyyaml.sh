# MAINTAINERS.yml as get_maintainer.py reads it (issue 38, point 4): the
# same files against PyYAML's yaml.load(f, Loader=CLoader) itself, the
# script's call.  For each: PyYAML refuses it and maintevo reads no area
# of it (a note saying why, with the line), or both give the same areas
# with the same number of patterns.  Skipped without python3-yaml.
. "$(dirname "$0")/lib.sh" "$@"
command -v python3 >/dev/null || skip "python3 is not installed"
python3 -c 'import yaml; yaml.CLoader' 2>/dev/null || skip "python3-yaml (with libyaml) is not installed"

mkrepo z
mkdir -p z/a z/b
echo a >z/a/a.c && echo b >z/b/b.c && echo >z/zephyr-env.sh
i=0
add_case() {
	i=$((i + 1))
	printf '%s' "$1" >z/MAINTAINERS.yml
	cp z/MAINTAINERS.yml "case$i.yml"
	commit_all z "v1.$i.0"
}
add_case 'Common:
  files: &common
    - a/
    - b/
Other:
  files: *common
  files-exclude: [&x a/x/, *x]
'
add_case 'A: &area
  files: [a/]
  files-regex: [&r "^b"]
B: *area
C:
  files: [*r]
'
add_case 'A:
  files: [a/]
---
B:
  files: [b/]
'
add_case 'A:
  files: !foo [a/]
'
add_case 'A:
  files: [!!str a/, ! b/]
'
add_case 'A:
  files: *nope
'
add_case '---
A: !!map
  files: !!seq [a/]
...
'
add_case 'A:
  files: [a/, [[[[[[[[[[[[deep]]]]]]]]]]]]]
'
add_case 'Base: &base
  files: [a/]
  files-exclude: [a/x/]
  maintainers: [m]
A:
  files: [b/]
  <<: *base
B:
  <<: [*base, {files-regex: ["^z"], files: [z/]}]
  files-regex: ["^b"]
C:
  !!merge <<: {files: [a/, b/]}
"<<":
  files: [b/]
'
add_case 'Base: &base
  files: [a/]
A:
  <<: [*base, 3]
'

for k in $(seq 1 $i); do
	step "case $k: $(head -c 60 "case$k.yml" | tr '\n' ' ')"
	expect_exit '[01]' "$MEV" sections --repo z --rev "v1.$k.0" --warnings
	python3 - "case$k.yml" "$OUT" "$ERR" <<'EOF' || fail "case $k: maintevo and PyYAML differ"
import csv, sys, yaml
text = open(sys.argv[1]).read()
out, err = open(sys.argv[2]).read(), open(sys.argv[3]).read()
try:
    data = yaml.load(text, Loader=yaml.CLoader)
except yaml.YAMLError as e:
    print("PyYAML refuses:", str(e).split("\n")[0])
    assert "no area of this file is read" in err, err
    sys.exit(0)
# the script's check stops on a value nested deeper than a list of strings
deep = any(isinstance(v, list) and any(not isinstance(x, str) for x in v)
           for a in data.values() for v in a.values())
if deep:
    assert "no area of this file is read" in err, err
    sys.exit(0)
keys = ("files", "files-exclude", "files-regex", "files-regex-exclude")
want = {name: sum(len(a.get(k) or []) for k in keys) for name, a in data.items()}
got = {r["section"]: int(r["patterns"]) for r in csv.DictReader(out.splitlines())}
assert got == want, (got, want, err)
assert "malformed" not in err, err
EOF
done
echo "PASS"
