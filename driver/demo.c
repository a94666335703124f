/* Show what the synchronized-I/O open flags of the glibc this program is
   built against do on the running kernel: for each request, the flag
   value, the flags the kernel kept (F_GETFL), and what that means.
   Copyright (C) 2026 The osync-glibc authors.  GPL-2.0-or-later.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The kernel's file-integrity bit, whatever this glibc calls it.  */
#ifdef __O_FULLSYNC
# define FULLSYNC_BIT __O_FULLSYNC
#else
# define FULLSYNC_BIT (O_SYNC & ~O_DSYNC)
#endif
#ifdef __O_RSYNC
# define RSYNC_BIT __O_RSYNC
#else
# define RSYNC_BIT 0
#endif

static const char *
meaning (int got)
{
  int data = (got & O_DSYNC) != 0;
  int full = (got & FULLSYNC_BIT) != 0;
  int rsync = RSYNC_BIT != 0 && (got & RSYNC_BIT) != 0;
  if (full && rsync)
    return "file integrity for writes, and for reads (synchronized reads)";
  if (full)
    return "file integrity: each write waits for data and all metadata";
  if (data && rsync)
    return "data integrity for writes, and for reads (synchronized reads)";
  if (data)
    return "data integrity: each write waits for its data (no mtime)";
  return "no synchronization at all";
}

static void
names (int v, char *buf, size_t len)
{
  buf[0] = '\0';
  if (v & O_DSYNC)
    strncat (buf, "O_DSYNC", len - strlen (buf) - 1);
  if (v & FULLSYNC_BIT)
    strncat (buf, buf[0] ? "|FULLSYNC" : "FULLSYNC", len - strlen (buf) - 1);
  if (RSYNC_BIT != 0 && (v & RSYNC_BIT))
    strncat (buf, buf[0] ? "|RSYNC" : "RSYNC", len - strlen (buf) - 1);
  if (buf[0] == '\0')
    strncat (buf, "-", len - 1);
}

int
main (int argc, char **argv)
{
  static const struct { const char *name; int flag; int rsync; } req[] =
    {
      { "O_DSYNC", O_DSYNC, 0 },
      { "O_SYNC", O_SYNC, 0 },
      { "O_RSYNC|O_DSYNC", O_RSYNC | O_DSYNC, 1 },
      { "O_RSYNC|O_SYNC", O_RSYNC | O_SYNC, 1 },
    };
  const char *path = argc > 1 ? argv[1] : "demo.tmp";
  struct utsname u;
  uname (&u);
  printf ("glibc %s (%s headers), %d-bit, kernel %s\n",
          gnu_get_libc_version (),
#ifdef __O_FULLSYNC
          "patched",
#else
          "unpatched",
#endif
          (int) sizeof (long) * 8, u.release);
  printf ("  O_DSYNC=%#o  O_SYNC=%#o  O_RSYNC=%#o%s\n\n", O_DSYNC, O_SYNC,
          O_RSYNC, O_RSYNC == O_SYNC ? "  (O_RSYNC is O_SYNC)" : "");
  printf ("  %-16s %-12s %-22s %s\n", "open flags", "value",
          "kernel kept (F_GETFL)", "what writes and reads get");
  for (size_t i = 0; i < sizeof req / sizeof req[0]; i++)
    {
      int fd = open (path, O_RDWR | O_CREAT | req[i].flag, 0600);
      if (fd < 0)
        {
          fprintf (stderr, "demo: open %s: %s\n", path, strerror (errno));
          return 1;
        }
      int got = fcntl (fd, F_GETFL);
      close (fd);
      char buf[64];
      names (got, buf, sizeof buf);
      printf ("  %-16s %#-12o %-22s %s\n", req[i].name, req[i].flag, buf,
              meaning (got));
      if (req[i].rsync && RSYNC_BIT == 0)
        printf ("  %-16s %-12s %-22s note: these headers define O_RSYNC as "
                "O_SYNC, so asking\n  %52s for synchronized reads made the "
                "writes O_SYNC too\n", "", "", "", "");
      else if (req[i].rsync && !(got & RSYNC_BIT))
        printf ("  %-16s %-12s %-22s note: O_RSYNC was not passed on: this "
                "kernel does not\n  %52s implement synchronized reads; "
                "reads are ordinary\n", "", "", "", "");
    }
  unlink (path);
  return 0;
}
