/* Where the open stores' data files are mapped, for a handler of SIGBUS (mev_store_fault_dir()). */
#include "store_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/*
 * LMDB reads data.mdb through a map: when another program truncates the
 * file, a read of a page past its new end raises SIGBUS.  The handler
 * (the command line's) asks which store's map the address lies in, to say
 * so; it may run at any moment, so the table is read and written with
 * atomics and without locks (a slot changes while a store opens, grows or
 * closes: at worst the handler misses the store's name).
 */
enum { MAPS = 64 };

static struct {
	_Atomic(uintptr_t) lo, hi;
	_Atomic(const char *) dir;
	_Atomic(const void *) owner;
} maps[MAPS];

/* Where data.mdb of s is mapped: LMDB does not say (mdb_env_info()'s
 * me_mapaddr is the fixed address, none), the process's map list does. */
static int map_range(uintptr_t *lo, uintptr_t *hi, const mev_store *s)
{
	char path[4096], line[4400];
	struct stat st;
	FILE *f;
	int found = 0;
	snprintf(path, sizeof path, "%s/data.mdb", s->dir);
	if (stat(path, &st) != 0 || !(f = fopen("/proc/self/maps", "re")))
		return 0;
	while (!found && fgets(line, sizeof line, f)) {
		unsigned long long a, b, ino;
		unsigned maj, mnr;
		if (sscanf(line, "%llx-%llx %*s %*s %x:%x %llu", &a, &b, &maj, &mnr, &ino) == 5 &&
		    ino == (unsigned long long)st.st_ino && maj == major(st.st_dev) &&
		    mnr == minor(st.st_dev)) {
			*lo = (uintptr_t)a;
			*hi = (uintptr_t)b;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

void mev__store_map_note(mev_store *s)
{
	uintptr_t lo, hi;
	int free_slot = -1;
	if (!s->env || !map_range(&lo, &hi, s))
		return;
	for (int i = 0; i < MAPS; i++) {
		const void *o = atomic_load(&maps[i].owner);
		if (o == s) {
			free_slot = i;
			break;
		}
		if (!o && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return; /* more stores open than slots: that one goes unnamed */
	atomic_store(&maps[free_slot].hi, 0);
	atomic_store(&maps[free_slot].dir, s->dir);
	atomic_store(&maps[free_slot].lo, lo);
	atomic_store(&maps[free_slot].hi, hi);
	atomic_store(&maps[free_slot].owner, (const void *)s);
}

void mev__store_map_forget(mev_store *s)
{
	for (int i = 0; i < MAPS; i++)
		if (atomic_load(&maps[i].owner) == s) {
			atomic_store(&maps[i].hi, 0);
			atomic_store(&maps[i].lo, 0);
			atomic_store(&maps[i].dir, NULL);
			atomic_store(&maps[i].owner, NULL);
		}
}

const char *mev_store_fault_dir(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	for (int i = 0; i < MAPS; i++) {
		uintptr_t lo = atomic_load(&maps[i].lo), hi = atomic_load(&maps[i].hi);
		if (lo && a >= lo && a < hi)
			return atomic_load(&maps[i].dir);
	}
	return NULL;
}
