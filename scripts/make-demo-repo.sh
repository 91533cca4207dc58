#!/usr/bin/env bash
# make-demo-repo.sh DIR: build maintevo's demo history, a small kernel-like
# git repository with releases v1.0 .. v1.7 (and v1.3-rc1, not a release).
#
# Everything is deterministic: fixed identities and dates (one day per
# release), file contents computed from the path and the release only, so
# the same commit ids come out on every machine.  The history is written as
# one `git fast-import` stream, then checked out: a few seconds in all.
# What happens between releases (besides files added, changed and removed
# every time):
#   v1.1  ISDN becomes an orphan, INTEL ETHERNET gains a reviewer
#   v1.2  BORN: BTRFS FILE SYSTEM (new code, new section)
#   v1.3  EXT2 goes to Odd Fixes, ISDN to Obsolete (after v1.3-rc1)
#   v1.4  SPLIT: NETWORKING DRIVERS stops covering drivers/net/wireless/,
#         which gets its own NETWORKING DRIVERS (WIRELESS) section
#   v1.5  MERGE: USB HOST SUBSYSTEM and USB GADGET SUBSYSTEM become
#         USB SUBSYSTEM;  DEATH: ISDN SUBSYSTEM and drivers/isdn/ go away
#   v1.6  RENAME: DRM DRIVERS becomes DRM DRIVERS AND COMMON INFRASTRUCTURE
#   v1.7  MAINTAINERS identical to v1.6
set -euo pipefail

die() { echo "make-demo-repo.sh: error: $*" >&2; exit 1; }
case ${1:-} in -h | --help) echo "usage: scripts/make-demo-repo.sh DIR"; exit 0 ;; esac
[ $# -eq 1 ] || { echo "usage: scripts/make-demo-repo.sh DIR" >&2; exit 2; }
dir=$1
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
	die "'$dir' exists and is not empty (remove it first)"
fi
mkdir -p "$dir"

# A git that ignores the user's configuration; fixed identities and dates
# (the stream below names its own, these cover anything else).
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=/nonexistent
export GIT_AUTHOR_NAME='Demo Release Bot' GIT_AUTHOR_EMAIL='releases@example.org'
export GIT_COMMITTER_NAME='Demo Release Bot' GIT_COMMITTER_EMAIL='releases@example.org'
export GIT_AUTHOR_DATE='1577880000 +0000' GIT_COMMITTER_DATE='1577880000 +0000'
export TZ=UTC LC_ALL=C

r=0 # the release being built: 0 for v1.0 .. 7 for v1.7

# Print DIR/NAME for each NAME.
files() { local d=$1 f; shift; for f in "$@"; do echo "$d/$f"; done; }
# Print DIR/STEM1EXT .. DIR/STEM<N>EXT.
numbered() { local i; for ((i = 1; i <= $4; i++)); do echo "$1/$2$i$3"; done; }

# The regular files of release $r, one path a line.
manifest() {
	echo COPYING; echo README; echo Kconfig
	# arch/arm: one legacy board retired per release, one new DT per release
	files arch/arm Kconfig Kconfig.debug Makefile
	files arch/arm/kernel setup.c irq.c process.c traps.c smp.c entry-armv.S
	files arch/arm/mm init.c mmu.c fault.c cache-v7.S
	files arch/arm/include/asm io.h irq.h cacheflush.h
	numbered arch/arm/mach-legacy board- .c $((7 - r))
	files arch/arm/boot/dts Makefile
	numbered arch/arm/boot/dts demo-board- .dts $((4 + r))
	files arch/x86 Kconfig Makefile
	files arch/x86/kernel setup.c irq.c process.c traps.c smpboot.c tsc.c
	files arch/x86/mm init.c fault.c pgtable.c
	files arch/x86/include/asm io.h irq.h kvm_host.h
	files arch/x86/kvm x86.c mmu.c emulate.c lapic.c
	files arch/x86/kvm/vmx vmx.c nested.c
	# drivers/net: ethernet grows, ath5k is dropped in v1.6
	files drivers/net Kconfig Makefile loopback.c tun.c veth.c dummy.c
	files drivers/net/ethernet/intel/e1000 e1000_main.c e1000_hw.c e1000_param.c
	numbered drivers/net/ethernet/intel/igb igb_ .c $((2 + r / 2))
	files drivers/net/ethernet/realtek r8169_main.c 8139too.c
	files drivers/net/wireless/ath main.c regd.c
	files drivers/net/wireless/ath/ath9k main.c hw.c init.c recv.c xmit.c
	((r >= 6)) || files drivers/net/wireless/ath/ath5k base.c phy.c
	files drivers/net/wireless/intel/iwlwifi iwl-drv.c iwl-io.c iwl-trans.c
	# drivers/gpu: DRM core grows by one file a release
	files drivers/gpu/drm Kconfig Makefile
	numbered drivers/gpu/drm drm_core_ .c $((5 + r))
	files drivers/gpu/drm/i915 i915_drv.c i915_gem.c i915_irq.c intel_display.c
	files drivers/gpu/drm/i915/gt intel_gt.c intel_engine_cs.c
	files drivers/usb Kconfig Makefile
	files drivers/usb/core hub.c urb.c message.c usb.c
	files drivers/usb/host ehci-hcd.c ehci-pci.c ohci-hcd.c uhci-hcd.c xhci.c xhci-ring.c xhci-mem.c
	files drivers/usb/gadget composite.c configfs.c udc-core.c
	files drivers/usb/gadget/function f_mass_storage.c f_acm.c f_ecm.c
	files drivers/tty tty_io.c n_tty.c tty_ldisc.c
	files drivers/tty/vt vt.c keyboard.c
	files drivers/tty/serial serial_core.c amba-pl011.c imx.c 8250_legacy.c
	files drivers/tty/serial/8250 8250_core.c 8250_port.c 8250_pci.c
	# ISDN dies in v1.5
	((r >= 5)) || files drivers/isdn/capi capi.c kcapi.c capiutil.c
	((r >= 5)) || files drivers/isdn/hardware/avm b1.c c4.c
	((r >= 5)) || files include/linux isdn.h isdn_ppp.h
	files fs namei.c open.c read_write.c inode.c dcache.c super.c
	numbered fs/ext4 ext4_part .c $((6 + r / 3))
	files fs/ext4 ext4.h
	files fs/ext2 super.c inode.c namei.c ext2.h
	files fs/jbd2 journal.c commit.c recovery.c
	# BTRFS is born in v1.2 and grows fast
	((r < 2)) || numbered fs/btrfs btrfs_part .c $((2 * r))
	((r < 2)) || files fs/btrfs ctree.h
	((r < 2)) || files include/uapi/linux btrfs.h btrfs_tree.h
	files include/linux fs.h dcache.h mm.h mmzone.h vmalloc.h vmstat.h slab.h \
		sched.h interrupt.h netdevice.h skbuff.h tty.h serial_core.h \
		serial_8250.h usb.h jbd2.h kvm_host.h of.h
	files include/linux/usb hcd.h ch9.h ch11.h gadget.h composite.h
	files include/net sock.h tcp.h cfg80211.h
	files include/drm drm_drv.h drm_file.h
	files include/uapi/linux types.h ioctl.h
	files kernel fork.c exit.c signal.c sys.c
	files kernel/sched core.c fair.c rt.c deadline.c
	files kernel/irq manage.c chip.c irqdesc.c
	files mm page_alloc.c vmscan.c mmap.c memory.c slab.c slub.c slob.c
	files net/core dev.c skbuff.c sock.c
	files net/ipv4 tcp.c udp.c ip_output.c route.c
	files net/ipv6 addrconf.c route.c
	files net/wireless core.c nl80211.c reg.c
	files Documentation index.rst Makefile
	files Documentation/process submitting-patches.rst coding-style.rst
	files Documentation/admin-guide README.rst kernel-parameters.txt
	files Documentation/filesystems ext4.rst vfs.rst
	((r < 2)) || files Documentation/filesystems btrfs.rst
	files Documentation/virt/kvm api.rst
	files Documentation/networking netdevices.rst
	files Documentation/devicetree/bindings/serial 8250.yaml pl011.yaml
	files Documentation/devicetree/bindings/net ethernet.yaml
	files scripts Makefile.build Makefile.lib checkpatch.pl kernel-doc sphinx-pre-install
	files scripts/basic fixdep.c
	files scripts/dtc dtc.c livetree.c
}

# For every path read on stdin, a fast-import "M" command with the file's
# content inline: pseudo-random lines from a Park-Miller generator seeded
# with a hash of the path (the same with any awk), more lines for the
# releases (up to $r) where a hash says the file changed.  Scripts are
# executable.
generated_files() {
	awk -v r="$r" '
	function hash(s,   h, i) {
		h = 7
		for (i = 1; i <= length(s); i++)
			h = (h * 31 + ord[substr(s, i, 1)]) % 2147483647
		return h + 1
	}
	function rnd(n) { seed = (seed * 16807) % 2147483647; return seed % n }
	BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
	{
		path = $0; seed = hash(path)
		n = 8 + rnd(path ~ /\.(c|S)$/ ? 220 : 60)
		last = 0
		for (k = 1; k <= r; k++) {
			h = hash(path "@" k)
			if (h % 4 == 0) { n += 1 + h % 23; last = k }
		}
		base = path; sub(/.*\//, "", base); gsub(/[^A-Za-z0-9]/, "_", base)
		text = sprintf("/* %s: demo content, last changed in v1.%d */\n", path, last)
		for (i = 1; i <= n; i++) {
			if (path ~ /\.(c|h|S)$/)
				text = text sprintf("int %s_%d(int x) { return x * %d + %d; }\n",
						    base, i, rnd(9973), rnd(97))
			else
				text = text sprintf("%s line %d: value %d\n", base, i, rnd(99991))
		}
		mode = path ~ /^scripts\/(checkpatch\.pl|kernel-doc)$/ ? "100755" : "100644"
		printf "M %s inline %s\ndata %d\n%s\n", mode, path, length(text), text
	}'
}

# The MAINTAINERS file of release $r.  "X: value" lines get their tab here.
maintainers() {
	local st_isdn=Maintained st_ext2=Maintained
	((r < 1)) || st_isdn=Orphan
	((r < 3)) || { st_isdn=Obsolete; st_ext2='Odd Fixes'; }
	{
	cat <<'EOF'
List of maintainers of the maintevo demo kernel
===============================================

This file mimics the MAINTAINERS file of Linux.  It is written by maintevo's
scripts/make-demo-repo.sh.

Descriptions of section entries and preferred order
---------------------------------------------------

	M: *Mail* patches to: FullName <address@domain>
	R: Designated *Reviewer*: FullName <address@domain>
	L: *Mailing list* that is relevant to this area
	S: *Status*, one of the following:
	   Supported:	Someone is actually paid to look after this.
	   Maintained:	Someone actually looks after it.
	   Odd Fixes:	It has a maintainer but they don't have time to do
			much other than throw the odd patch in.
	   Orphan:	No current maintainer.
	   Obsolete:	Old code. Something tagged obsolete generally means
			it has been replaced by a better system.
	T: *SCM* tree type and location.
	F: *Files* and directories wildcard patterns.
	   A trailing slash includes all files and subdirectory files.
	   One pattern per line.  Multiple F: lines acceptable.
	X: *Excluded* files and directories that are NOT maintained, same
	   rules as F:.
	N: Files and directories *Regex* patterns.
	K: *Content regex* (perl extended) pattern match in a patch or file.

Maintainers List
----------------

.. note:: When reading this list, please look for the most precise areas
          first. When adding to this list, please keep the entries in
          alphabetical order.

8250/16?50 (AND CLONE UARTS) SERIAL DRIVER
M: Gus Serial <gus@example.org>
L: linux-serial@lists.example.org
S: Odd Fixes
F: drivers/tty/serial/8250*
F: include/linux/serial_8250.h

ARM DEVICE TREE SOURCES
M: Dora Tree <dora@example.org>
L: linux-arm-kernel@lists.example.org
S: Maintained
F: arch/arm/boot/dts/
F: scripts/dtc/include-prefixes/arm

ARM PORT
M: Russell Arm <rarm@example.org>
L: linux-arm-kernel@lists.example.org
S: Odd Fixes
T: git git://git.example.org/linux-arm.git
F: arch/arm/
X: arch/arm/boot/dts/

EOF
	if ((r < 2)); then :; else cat <<'EOF'
BTRFS FILE SYSTEM
M: Chris Tree <chris@example.org>
M: David Cow <david@example.org>
L: linux-btrfs@lists.example.org
S: Maintained
W: https://btrfs.example.org
T: git git://git.example.org/btrfs.git
F: Documentation/filesystems/btrfs.rst
F: fs/btrfs/
F: include/uapi/linux/btrfs*

EOF
	fi
	cat <<'EOF'
DEVICE TREE COMPILER
M: Dora Tree <dora@example.org>
S: Maintained
F: scripts/dtc/

DOCUMENTATION
M: Jon Docs <jon@example.org>
L: linux-doc@lists.example.org
S: Maintained
F: Documentation/
X: Documentation/devicetree/
K: \bdoc\b

DOCUMENTATION
M: Jon Docs <jon@example.org>
S: Maintained
F: scripts/kernel-doc
F: scripts/sphinx-pre-install

EOF
	if ((r < 6)); then echo 'DRM DRIVERS'; else echo 'DRM DRIVERS AND COMMON INFRASTRUCTURE'; fi
	cat <<'EOF'
M: Dave Render <dave@example.org>
L: dri-devel@lists.example.org
S: Maintained
T: git git://git.example.org/drm.git
F: drivers/gpu/
F: include/drm/

EXT2 FILE SYSTEM
M: Jan Block <jan@example.org>
L: linux-ext4@lists.example.org
EOF
	echo "S: $st_ext2"
	cat <<'EOF'
F: fs/ext2/

EXT4 FILE SYSTEM
M: Ted Extent <ted@example.org>
R: Andreas Inode <andreas@example.org>
L: linux-ext4@lists.example.org
S: Maintained
F: Documentation/filesystems/ext4.rst
F: fs/ext4/

FILESYSTEMS (VFS and infrastructure)
M: Al Viro-Demo <al@example.org>
L: linux-fsdevel@lists.example.org
S: Maintained
F: fs/*
F: include/linux/fs.h
F: include/linux/dcache.h

GET MAINTAINER SCRIPT
M: Joe Perl <joe@example.org>
S: Maintained
F: scripts/get_maintainer.pl

INTEL DRM DRIVERS (excluding Poulsbo, Moorestown and derivative chipsets)
M: Jani Display <jani@example.org>
L: intel-gfx@lists.example.org
S: Supported
F: drivers/gpu/drm/i915/

INTEL ETHERNET DRIVERS
M: Tony Wire <tony@example.org>
EOF
	((r < 1)) || echo 'R: Przemek Queue <przemek@example.org>'
	cat <<'EOF'
L: intel-wired-lan@lists.example.org
S: Supported
F: drivers/net/ethernet/intel/

INTEL WIRELESS WIFI LINK (iwlwifi)
M: Gregory Radio <gregory@example.org>
L: linux-wireless@lists.example.org
S: Supported
F: drivers/net/wireless/intel/iwlwifi/

IRQ SUBSYSTEM
M: Thomas Tick <thomas@example.org>
S: Maintained
F: kernel/irq/
F: include/linux/interrupt.h

EOF
	if ((r < 5)); then cat <<EOF
ISDN SUBSYSTEM
M: Karsten Line <karsten@example.org>
S: $st_isdn
F: drivers/isdn/
F: include/linux/isdn*
N: capi

EOF
	fi
	cat <<'EOF'
JOURNALLING LAYER FOR BLOCK DEVICES (JBD2)
M: Jan Block <jan@example.org>
L: linux-ext4@lists.example.org
S: Maintained
F: fs/jbd2/
F: include/linux/jbd2.h

KERNEL BUILD
M: Masahiro Make <masahiro@example.org>
L: linux-kbuild@lists.example.org
S: Maintained
F: Makefile
F: scripts/Makefile*
F: scripts/basic/

KERNEL VIRTUAL MACHINE FOR X86 (KVM/x86)
M: Paolo Guest <paolo@example.org>
L: kvm@lists.example.org
S: Supported
T: git git://git.example.org/kvm.git
F: arch/x86/kvm/
N: kvm
K: \bkvm_[a-z_]+\b

MEMORY MANAGEMENT, CORE
M: Andrew Page <akpm@example.org>
L: linux-mm@lists.example.org
S: Maintained
F: include/linux/[mv]m*.h
F: mm/
X: mm/sl?b.c

NETWORKING [GENERAL]
M: Dave Packet <davem@example.org>
L: netdev@lists.example.org
S: Maintained
F: include/net/
F: net/
X: net/wireless/

EOF
	echo 'NETWORKING DRIVERS'
	echo 'M: Jakub Queue <kuba@example.org>'
	echo 'L: netdev@lists.example.org'
	echo 'S: Odd Fixes'
	((r < 4)) || echo '# wireless drivers have had their own section since v1.4'
	echo 'F: drivers/net/'
	echo 'F: include/linux/netdevice.h'
	((r < 4)) || echo 'X: drivers/net/wireless/'
	echo
	if ((r >= 4)); then cat <<'EOF'
NETWORKING DRIVERS (WIRELESS)
M: Kalle Radio <kvalo@example.org>
L: linux-wireless@lists.example.org
S: Maintained
F: drivers/net/wireless/

EOF
	fi
	cat <<'EOF'
OPEN FIRMWARE AND FLATTENED DEVICE TREE BINDINGS
M: Rob Binding <rob@example.org>
L: devicetree@lists.example.org
S: Maintained
F: Documentation/devicetree/
F: include/linux/of.h
K: \bof_[a-z_]+\b

QUALCOMM ATHEROS ATH GENERIC UTILITIES
M: Kalle Radio <kvalo@example.org>
L: linux-wireless@lists.example.org
S: Supported
F: drivers/net/wireless/ath/*

QUALCOMM ATHEROS ATH9K WIRELESS DRIVER
M: Toke Airtime <toke@example.org>
L: linux-wireless@lists.example.org
S: Maintained
F: drivers/net/wireless/ath/ath9k/

REALTEK ETHERNET DRIVERS
M: Heiner Phy <heiner@example.org>
L: netdev@lists.example.org
S: Maintained
F: drivers/net/ethernet/realtek/

SCHEDULER
M: Ingo Runqueue <ingo@example.org>
M: Peter Fair <peterz@example.org>
S: Maintained
T: git git://git.example.org/tip.git sched/core
F: include/linux/sched.h
F: kernel/sched/

SERIAL DRIVERS
M: Greg Tty <greg@example.org>
L: linux-serial@lists.example.org
S: Maintained
F: Documentation/devicetree/bindings/serial/
N: serial

SLAB ALLOCATOR
M: Vlastimil Object <vbabka@example.org>
L: linux-mm@lists.example.org
S: Maintained
F: include/linux/slab.h
F: mm/sl?b.c

TTY LAYER AND SERIAL DRIVERS
M: Greg Tty <greg@example.org>
S: Supported
F: drivers/tty/
F: include/linux/serial_core.h
F: include/linux/tty.h

EOF
	if ((r < 5)); then cat <<'EOF'
USB EHCI DRIVER
M: Alan Host <alan@example.org>
L: linux-usb@lists.example.org
S: Maintained
F: drivers/usb/host/ehci*

USB GADGET SUBSYSTEM
M: Felipe Device <felipe@example.org>
L: linux-usb@lists.example.org
S: Maintained
F: drivers/usb/gadget/
F: include/linux/usb/composite.h
F: include/linux/usb/gadget.h

USB HOST SUBSYSTEM
M: Greg Tty <greg@example.org>
L: linux-usb@lists.example.org
S: Supported
F: drivers/usb/core/
F: drivers/usb/host/
F: include/linux/usb.h
F: include/linux/usb/ch?.h
F: include/linux/usb/hcd.h

EOF
	else cat <<'EOF'
USB EHCI DRIVER
M: Alan Host <alan@example.org>
L: linux-usb@lists.example.org
S: Maintained
F: drivers/usb/host/ehci*

USB SUBSYSTEM
M: Greg Tty <greg@example.org>
L: linux-usb@lists.example.org
S: Supported
F: drivers/usb
F: include/linux/usb.h
F: include/linux/usb/

EOF
	fi
	cat <<'EOF'
USB MASS STORAGE GADGET
M: Alan Host <alan@example.org>
S: Orphan
F: drivers/usb/gadget/function/f_mass_storage.c

USB XHCI DRIVER
M: Mathias Ring <mathias@example.org>
L: linux-usb@lists.example.org
S: Supported
F: drivers/usb/host/xhci*

X86 ARCHITECTURE (32-BIT AND 64-BIT)
M: Thomas Tick <thomas@example.org>
M: Ingo Runqueue <ingo@example.org>
L: linux-kernel@lists.example.org
S: Maintained
T: git git://git.example.org/tip.git x86/core
F: arch/x86/
# KVM has its own section
X: arch/x86/kvm/

THE REST
M: Linus Demo <linus@example.org>
L: linux-kernel@lists.example.org
S: Buried alive in reporters
T: git git://git.example.org/linux.git
F: *
F: */
EOF
	} | sed 's/^\([A-Z]\): /\1:\t/'
}

# The top-level Makefile carries the version, like Linux's.
makefile() {
	printf 'VERSION = 1\nPATCHLEVEL = %d\nEXTRAVERSION = %s\nNAME = Demo Penguin\n' "$r" "$1"
	printf '\nall:\n\t$(MAKE) -C scripts/basic\n'
}

# fast-import: "data" with the exact byte count of $1 (the LF after it is
# optional in the stream and not part of the data).
data() { printf 'data %d\n%s\n' "${#1}" "$1"; }

# The fast-import commands of one commit with the tree of release $r and the
# MAINTAINERS of release $1, made at time $3 and tagged $4.
snapshot() { # MAINTAINERS_RELEASE EXTRAVERSION TIME TAG
	local mr=$1 extra=$2 time=$3 tag=$4 who='Demo Release Bot <releases@example.org>'
	echo 'commit refs/heads/master'
	echo "author $who $time +0000"
	echo "committer $who $time +0000"
	data "Demo kernel v1.$r$extra

Generated by scripts/make-demo-repo.sh.
"
	echo 'deleteall'
	manifest | generated_files
	echo 'M 100644 inline Makefile'
	data "$(makefile "$extra")
"
	echo 'M 100644 inline MAINTAINERS'
	data "$(r=$mr; maintainers)
"
	# a symbolic link to a directory, as in Linux
	echo 'M 120000 inline scripts/dtc/include-prefixes/arm'
	data '../../../arch/arm/boot/dts'
	echo "tag $tag"
	echo 'from refs/heads/master'
	echo "tagger $who $time +0000"
	data "Demo kernel $tag
"
}

git -C "$dir" -c init.defaultBranch=master init -q
day0=1577880000 # 2020-01-01 12:00 UTC
for r in 0 1 2 3 4 5 6 7; do
	if ((r == 3)); then # the code of v1.3 lands first, MAINTAINERS follows
		snapshot 2 -rc1 $((day0 + 3 * 86400 - 43200)) v1.3-rc1
	fi
	snapshot "$r" '' $((day0 + r * 86400)) "v1.$r"
done | git -C "$dir" fast-import --quiet
git -C "$dir" reset -q --hard master
echo "demo repository with tags v1.0 .. v1.7 in $dir"
