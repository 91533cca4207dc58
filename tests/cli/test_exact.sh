# Exact CSV of filemap, graph and sections on a repository small enough to
# work out by hand (see tests/fixtures/tiny-repo.sh for the table of files and sections).
. "$(dirname "$0")/lib.sh" "$@"
. "$SRC/tests/fixtures/tiny-repo.sh"
make_tiny_repo tiny

step "filemap: THE REST left out, uncovered files have no sections, RFC 4180 quoting"
expect_exit 0 "$MEV" filemap --repo tiny --rev v1
expect_stdout <<'EOF'
path,lines,bytes,sections
MAINTAINERS,41,591,
Makefile,1,5,
README,2,12,
arch/arm/Kconfig,2,17,ARM PORT
arch/arm/Kconfig.debug,1,13,ARM DEBUG | ARM PORT
docs/link,0,14,LINKED DOCS
drivers/net/a.c,3,21,"NETWORKING, ""CORE"" DRIVERS"
drivers/net/wireless/b.c,4,28,WIRELESS
drivers/tty/serial/8250/8250_core.c,5,35,
drivers/tty/serial/8250_early.c,0,6,8250 SERIAL
lib/lone.c,1,2,
EOF

step "filemap --keep-rest: THE REST everywhere, titles sorted bytewise"
expect_exit 0 "$MEV" filemap --repo tiny --rev v1 --keep-rest
expect_stdout <<'EOF'
path,lines,bytes,sections
MAINTAINERS,41,591,THE REST
Makefile,1,5,THE REST
README,2,12,THE REST
arch/arm/Kconfig,2,17,ARM PORT | THE REST
arch/arm/Kconfig.debug,1,13,ARM DEBUG | ARM PORT | THE REST
docs/link,0,14,LINKED DOCS | THE REST
drivers/net/a.c,3,21,"NETWORKING, ""CORE"" DRIVERS | THE REST"
drivers/net/wireless/b.c,4,28,THE REST | WIRELESS
drivers/tty/serial/8250/8250_core.c,5,35,THE REST
drivers/tty/serial/8250_early.c,0,6,8250 SERIAL | THE REST
lib/lone.c,1,2,THE REST
EOF

step "graph: self rows (zeros for EMPTY SECTION), one shared file, no THE REST"
expect_exit 0 "$MEV" graph --repo tiny --rev v1
expect_stdout <<'EOF'
from,to,lines,bytes,files
8250 SERIAL,8250 SERIAL,0,6,1
ARM DEBUG,ARM DEBUG,1,13,1
ARM DEBUG,ARM PORT,1,13,1
ARM PORT,ARM PORT,3,30,2
EMPTY SECTION,EMPTY SECTION,0,0,0
LINKED DOCS,LINKED DOCS,0,14,1
"NETWORKING, ""CORE"" DRIVERS","NETWORKING, ""CORE"" DRIVERS",3,21,1
WIRELESS,WIRELESS,4,28,1
EOF

step "graph --keep-rest: THE REST shares every covered file"
expect_exit 0 "$MEV" graph --repo tiny --rev v1 --keep-rest
expect_stdout <<'EOF'
from,to,lines,bytes,files
8250 SERIAL,8250 SERIAL,0,6,1
8250 SERIAL,THE REST,0,6,1
ARM DEBUG,ARM DEBUG,1,13,1
ARM DEBUG,ARM PORT,1,13,1
ARM DEBUG,THE REST,1,13,1
ARM PORT,ARM PORT,3,30,2
ARM PORT,THE REST,3,30,2
EMPTY SECTION,EMPTY SECTION,0,0,0
LINKED DOCS,LINKED DOCS,0,14,1
LINKED DOCS,THE REST,0,14,1
"NETWORKING, ""CORE"" DRIVERS","NETWORKING, ""CORE"" DRIVERS",3,21,1
"NETWORKING, ""CORE"" DRIVERS",THE REST,3,21,1
THE REST,THE REST,60,744,11
THE REST,WIRELESS,4,28,1
WIRELESS,WIRELESS,4,28,1
EOF

step "graph --out FILE writes the same bytes, nothing on stdout"
expect_exit 0 "$MEV" graph --repo tiny --rev v1 --keep-rest --out graph.csv
[ ! -s "$OUT" ] || fail "stdout not empty with --out"
expect_exit 0 "$MEV" graph --repo tiny --rev v1 --keep-rest
same_files graph.csv "$OUT"

step "sections: file order, status, counts of M/R/L/T and patterns"
expect_exit 0 "$MEV" sections --repo tiny --rev v1
expect_stdout <<'EOF'
section,file,line,status,maintainers,reviewers,lists,trees,patterns,display_name,title_kind
8250 SERIAL,MAINTAINERS,3,Maintained,0,0,0,0,1,8250 SERIAL,name
ARM DEBUG,MAINTAINERS,7,Odd Fixes,0,0,0,0,1,ARM DEBUG,name
ARM PORT,MAINTAINERS,11,Maintained,2,0,0,0,1,ARM PORT,name
EMPTY SECTION,MAINTAINERS,17,Orphan,0,0,0,0,1,EMPTY SECTION,name
LINKED DOCS,MAINTAINERS,21,Supported,0,0,0,0,1,LINKED DOCS,name
"NETWORKING, ""CORE"" DRIVERS",MAINTAINERS,25,Odd Fixes,0,0,1,0,3,"NETWORKING, ""CORE"" DRIVERS",name
WIRELESS,MAINTAINERS,33,Maintained,0,0,0,0,1,WIRELESS,name
THE REST,MAINTAINERS,37,Buried alive in reporters,1,0,0,0,2,THE REST,name
EOF

step "sections --patterns: the regex get_maintainer.pl derives (link to a directory gets '/')"
expect_exit 0 "$MEV" sections --repo tiny --rev v1 --patterns
expect_stdout <<'EOF'
section,file,line,type,value,regex,display_name
8250 SERIAL,MAINTAINERS,5,F,drivers/tty/serial/8250*,drivers/tty/serial/8250.*,8250 SERIAL
ARM DEBUG,MAINTAINERS,9,N,Kconfig \. debug,Kconfig \. debug,ARM DEBUG
ARM PORT,MAINTAINERS,15,F,arch/arm/Kconfig,arch/arm/Kconfig,ARM PORT
EMPTY SECTION,MAINTAINERS,19,F,does/not/exist.c,does/not/exist\.c,EMPTY SECTION
LINKED DOCS,MAINTAINERS,23,F,docs/link,docs/link/,LINKED DOCS
"NETWORKING, ""CORE"" DRIVERS",MAINTAINERS,28,F,drivers/net/,drivers/net/,"NETWORKING, ""CORE"" DRIVERS"
"NETWORKING, ""CORE"" DRIVERS",MAINTAINERS,30,X,drivers/net/wireless/,drivers/net/wireless/,"NETWORKING, ""CORE"" DRIVERS"
"NETWORKING, ""CORE"" DRIVERS",MAINTAINERS,31,N,b\.c,b\.c,"NETWORKING, ""CORE"" DRIVERS"
WIRELESS,MAINTAINERS,35,F,drivers/net/wireless/,drivers/net/wireless/,WIRELESS
THE REST,MAINTAINERS,40,F,*,.*,THE REST
THE REST,MAINTAINERS,41,F,*/,.*/,THE REST
EOF

step "a clean MAINTAINERS gives no notes on stderr"
[ ! -s "$ERR" ] || fail "unexpected stderr"

step "without THE REST: the same map (the first path, MAINTAINERS, matches nothing)"
sed -i '/^THE REST$/,$d' tiny/MAINTAINERS
commit_all tiny v2
expect_exit 0 "$MEV" filemap --repo tiny --rev v2 --keep-rest
expect_stdout <<'EOF'
path,lines,bytes,sections
MAINTAINERS,36,513,
Makefile,1,5,
README,2,12,
arch/arm/Kconfig,2,17,ARM PORT
arch/arm/Kconfig.debug,1,13,ARM DEBUG | ARM PORT
docs/link,0,14,LINKED DOCS
drivers/net/a.c,3,21,"NETWORKING, ""CORE"" DRIVERS"
drivers/net/wireless/b.c,4,28,WIRELESS
drivers/tty/serial/8250/8250_core.c,5,35,
drivers/tty/serial/8250_early.c,0,6,8250 SERIAL
lib/lone.c,1,2,
EOF
echo "PASS"
