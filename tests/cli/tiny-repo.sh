# tiny-repo.sh: make_tiny_repo DIR builds a one-release repository (tag v1)
# small enough to know every output by heart.  Sourced after lib.sh.
#
#   file                                  lines bytes  sections (THE REST aside)
#   MAINTAINERS                             41   591   -
#   Makefile                                 1     5   -
#   README                                   2    12   -
#   arch/arm/Kconfig                         2    17   ARM PORT
#   arch/arm/Kconfig.debug                   1    13   ARM PORT (no end anchor), ARM DEBUG (N:, /x)
#   docs/link -> ../drivers/net              0    14   LINKED DOCS (a link to a directory is "docs/link/")
#   drivers/net/a.c                          3    21   NETWORKING, "CORE" DRIVERS
#   drivers/net/wireless/b.c                 4    28   WIRELESS (X: also turns off N: b\.c)
#   drivers/tty/serial/8250/8250_core.c      5    35   -  (8250* has fewer '/')
#   drivers/tty/serial/8250_early.c          0     6   8250 SERIAL (no final newline)
#   lib/lone.c                               1     2   -
# EMPTY SECTION covers nothing; THE REST (F: * and F: */) covers everything.
make_tiny_repo() {
	local d=$1
	mkrepo "$d"
	mkdir -p "$d"/arch/arm "$d"/drivers/net/wireless "$d"/drivers/tty/serial/8250 \
		"$d"/docs "$d"/lib
	printf 'all:\n' >"$d"/Makefile
	printf 'hello\nworld\n' >"$d"/README
	printf 'config ARM\n\tbool\n' >"$d"/arch/arm/Kconfig
	printf 'menu "Debug"\n' >"$d"/arch/arm/Kconfig.debug
	ln -s ../drivers/net "$d"/docs/link
	printf 'int a;\nint a;\nint a;\n' >"$d"/drivers/net/a.c
	printf 'int b;\nint b;\nint b;\nint b;\n' >"$d"/drivers/net/wireless/b.c
	printf 'int c;\nint c;\nint c;\nint c;\nint c;\n' >"$d"/drivers/tty/serial/8250/8250_core.c
	printf 'int e;' >"$d"/drivers/tty/serial/8250_early.c
	printf 'x\n' >"$d"/lib/lone.c
	sed 's/^\([A-Z]\): /\1:\t/' >"$d"/MAINTAINERS <<'EOF'
Preamble: how to read this file

8250 SERIAL
S: Maintained
F: drivers/tty/serial/8250*

ARM DEBUG
S: Odd Fixes
N: Kconfig \. debug

ARM PORT
M: Ann Arm <ann@example.org>
M: Bob Arm <bob@example.org>
S: Maintained
F: arch/arm/Kconfig

EMPTY SECTION
S: Orphan
F: does/not/exist.c

LINKED DOCS
S: Supported
F: docs/link

NETWORKING, "CORE" DRIVERS
L: netdev@example.org
S: Odd Fixes
F: drivers/net/
# a comment line inside a section
X: drivers/net/wireless/
N: b\.c

WIRELESS
S: Maintained
F: drivers/net/wireless/

THE REST
M: Linus <linus@example.org>
S: Buried alive in reporters
F: *
F: */
EOF
	commit_all "$d" v1
}
