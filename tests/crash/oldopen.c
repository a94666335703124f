/* A library as one built against glibc 2.11 or earlier: the only glibc
   symbol it needs is the first version of open, so glibc's
   legacy_osync=1, which widens the O_DSYNC value (the O_SYNC of
   that time) only for such objects, applies to the opens made through
   it.  crash.exp links it with -nostdlib and the old version chosen by
   -DOLD_OPEN_VERSION (GLIBC_2.2.5 on x86_64, GLIBC_2.0 on i386).
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define STR_(x) #x
#define STR(x) STR_ (x)

extern int old_open (const char *, int, ...);
__asm__ (".symver old_open, open@" STR (OLD_OPEN_VERSION));

int
crash_old_open (const char *path, int flags)
{
  int fd = old_open (path, flags);
  /* Not a tail call: glibc judges the object that holds the return
     address, which must be this library, not the workload.  */
  __asm__ volatile ("" : "+r" (fd));
  return fd;
}
